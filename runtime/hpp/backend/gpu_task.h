//===- hpp/backend/gpu_task.h - Enqueued tasks on CUDA and HIP ------------===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// detail::submitTask for the GPU backends:
///  - the runtime owns HPP_TASK_STREAMS (8) non-blocking streams and
///    hands them out round robin, so that independent tasks can overlap;
///  - a dependency is an event wait on the task's stream: the order is
///    kept on the device, and the host never blocks in enqueue;
///  - a task enqueued after one future runs on that task's stream: the
///    order is then free;
///  - the event a future waits for (from a pool, timing disabled) is
///    recorded when first needed (GpuWork); the scratch memory of its launch
///    and its result buffer (device memory, copied back at the first get())
///    live as long as the work;
///  - a launch that writes a channel enqueues the consumers its writes can
///    trigger behind it on the task's stream (hpp/channel.h), so the event
///    covers them; the work finishes the channel (its counter, its errors)
///    when it completes.
///  - each task has an error record (hpp/device_error.h): what its device
///    code raises (a Segment index out of range, a Barrier deadlock) comes
///    out of its future's wait()/get() as the reference runtime's error; a
///    task enqueued after a failed one is launched but its kernel returns at
///    once (TaskGate, hpp/task.h), and its future names the failed task, as
///    on the CPU.
/// A blocking parallelFor synchronises the device, so it completes every
/// task enqueued before it.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_TASK_H
#define HPP_RUNTIME_BACKEND_GPU_TASK_H

#include "hpp/check.h"
#include "hpp/core/error.h"
#include "hpp/core/future.h"
#include "hpp/core/range.h"
#include "hpp/device_error.h"
#include "hpp/launch.h"

#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#ifndef HPP_TASK_STREAMS
#define HPP_TASK_STREAMS 8
#endif

namespace hpp {
namespace detail {

/// The streams tasks run on.
class StreamPool {
public:
  static StreamPool &get() {
    static StreamPool *P = new StreamPool; // Never destroyed.
    return *P;
  }
  HPP_GPU(Stream_t) next() {
    std::lock_guard<std::mutex> Lock(M);
    HPP_GPU(Stream_t) &S = Streams[Next];
    if (!S)
      HPP_CHECK(HPP_GPU(StreamCreateWithFlags)(&S, HPP_GPU(StreamNonBlocking)));
    Next = (Next + 1) % HPP_TASK_STREAMS;
    return S;
  }

private:
  std::mutex M;
  HPP_GPU(Stream_t) Streams[HPP_TASK_STREAMS] = {};
  unsigned Next = 0;
};

/// Events without timing, reused.
class EventPool {
public:
  static EventPool &get() {
    static EventPool *P = new EventPool; // Never destroyed.
    return *P;
  }
  HPP_GPU(Event_t) take() {
    {
      std::lock_guard<std::mutex> Lock(M);
      if (!Free.empty()) {
        HPP_GPU(Event_t) E = Free.back();
        Free.pop_back();
        return E;
      }
    }
    HPP_GPU(Event_t) E;
    HPP_CHECK(HPP_GPU(EventCreateWithFlags)(&E, HPP_GPU(EventDisableTiming)));
    return E;
  }
  /// \p E may be re-recorded: waits already made on it keep their point.
  void give(HPP_GPU(Event_t) E) {
    std::lock_guard<std::mutex> Lock(M);
    Free.push_back(E);
  }

private:
  std::mutex M;
  std::vector<HPP_GPU(Event_t)> Free;
};

/// A task launched on a stream. Its event is recorded when something
/// first needs it (a wait, or a dependent on another stream), so a chain
/// of tasks on one stream costs no event at all; recorded later, it also
/// covers what was queued on the stream since, which only waits longer.
class GpuWork : public Work {
public:
  GpuWork(const char *File, int Line, HPP_GPU(Stream_t) Stream)
      : Work(File, Line), Stream(Stream) {}
  ~GpuWork() override {
    if (Event)
      EventPool::get().give(Event);
  }
  HPP_GPU(Stream_t) stream() const { return Stream; }
  HPP_GPU(Event_t) event() {
    std::lock_guard<std::mutex> Lock(EventLock);
    if (!Event) {
      Event = EventPool::get().take();
      flushLaunchRecording();
      HPP_CHECK(HPP_GPU(EventRecord)(Event, Stream));
    }
    return Event;
  }
  std::shared_ptr<LaunchScratch> Scratch;
  std::shared_ptr<void> Buffer;
  /// Kept until complete: their error records are this task's gate.
  std::vector<std::shared_ptr<Work>> Deps;
  /// What the task's device code recorded (hpp/device_error.h); kept as
  /// long as the work, for the gates of the tasks enqueued after it.
  std::shared_ptr<DeviceErrorSink> Errors;
  /// The records of the consumers its channel writes launched behind it on
  /// its stream (LaunchOptions::StreamErrors), in launch order: their
  /// errors are the task's, for its future and its dependents' gates.
  std::vector<std::shared_ptr<DeviceErrorSink>> ConsumerErrors;

  /// The launch wrote a channel, whose host side (its counter, its
  /// errors) is taken in when the work completes.
  bool hostWorkPending() const override {
    return !done() && Scratch && !Scratch->AfterLaunch.empty();
  }

protected:
  /// Waits for the event (the launch and the consumers enqueued behind
  /// it), then throws what the device code recorded (its own error, the
  /// error of a consumer its channel writes launched, or, for a task whose
  /// gate kept it from running, the error of the dependency that failed,
  /// worded as the CPU runtimes word it: hpp/cpu/sync.h); then finishes
  /// the channels the launch wrote (their errors, about the launch, named
  /// at the enqueue as a launch error is).
  void complete() override {
    std::exception_ptr E;
    std::vector<std::shared_ptr<Work>> Mine = std::move(Deps);
    Deps.clear();
    try {
      HPP_CHECK(HPP_GPU(EventSynchronize)(event()));
      if (Errors && Errors->failed())
        throwRecorded(Mine);
      for (const auto &C : ConsumerErrors)
        checkDeviceErrors(C);
      if (Scratch)
        finishAfterLaunch(*Scratch);
    } catch (const RuntimeError &R) {
      E = isLaunchError(R) ? std::make_exception_ptr(R.at(file(), line()))
                           : std::current_exception();
    } catch (...) {
      E = std::current_exception();
    }
    Scratch.reset(); // Cancels what was not finished (after an error).
    if (E)
      std::rethrow_exception(E);
  }

private:
  /// The error Errors holds; for a task that did not run, the error of
  /// the dependency in \p Mine that failed.
  [[noreturn]] void throwRecorded(std::vector<std::shared_ptr<Work>> &Mine) {
    if (Errors->kind() != TaskNotRunError)
      throw Errors->error();
    if (std::exception_ptr E = failedDependency(Mine))
      std::rethrow_exception(E);
    throw RuntimeError("Task::enqueue", file(), line(),
                       "not run: a task it waits for failed");
  }

  HPP_GPU(Stream_t) Stream;
  std::mutex EventLock;
  HPP_GPU(Event_t) Event = nullptr;
};

/// Folds the dependency words of \p In into \p *Out (set when one is).
template <int = 0> __global__ void taskGateFold(unsigned *Out, TaskGate In) {
  for (unsigned I = 0; I < In.Count; ++I)
    if (*In.Deps[I])
      *Out = 1u;
}

/// The gate of a task enqueued on \p Stream after \p After, recording in
/// \p Self: the dependencies' error words; past TaskGate::Max of them,
/// folded by small kernels on \p Stream into Self's Fold word, which the
/// gate then reads.
inline TaskGate taskGate(const std::vector<std::shared_ptr<Work>> &After,
                         DeviceErrorSlot *Self, HPP_GPU(Stream_t) Stream) {
  TaskGate G;
  G.Self = Self;
  std::vector<const unsigned *> Words;
  for (const auto &D : After)
    if (auto *GW = dynamic_cast<GpuWork *>(D.get()); GW && GW->Errors) {
      Words.push_back(&GW->Errors->slot()->Claim);
      for (const auto &C : GW->ConsumerErrors)
        Words.push_back(&C->slot()->Claim);
    }
  if (Words.size() > TaskGate::Max) {
    unsigned *Fold = &Self->Fold;
    for (std::size_t I = 0; I < Words.size(); I += TaskGate::Max) {
      TaskGate Part;
      for (std::size_t J = I; J < Words.size() && Part.Count < TaskGate::Max;
           ++J)
        Part.Deps[Part.Count++] = Words[J];
      taskGateFold<><<<1, 1, 0, Stream>>>(Fold, Part);
      HPP_CHECK(HPP_GPU(GetLastError)());
    }
    Words.assign(1, Fold);
  }
  for (const unsigned *W : Words)
    G.Deps[G.Count++] = W;
  return G;
}

template <class R> std::vector<R> fetchDeviceResults(void *Out, std::size_t N) {
  std::vector<R> V(N);
  if (N)
    HPP_CHECK(HPP_GPU(Memcpy)(V.data(), Out, N * sizeof(R),
                              HPP_GPU(MemcpyDeviceToHost)));
  return V;
}

/// Enqueues \p L's launch over \p Rg after \p After; see the file comment.
template <class R, int N, class LauncherT>
Future<std::conditional_t<std::is_void<R>::value, void, std::vector<R>>>
submitTask(std::shared_ptr<const LauncherT> L, const Range<N, N> &Rg,
           std::vector<std::shared_ptr<Work>> After, const char *File,
           int Line) {
  static_assert(std::is_void<R>::value || std::is_trivially_copyable<R>::value,
                "Task<R, ...>: R must be trivially copyable to come back "
                "from the device");
  // After one task: on its stream, where the order is free.
  GpuWork *First =
      After.empty() ? nullptr : dynamic_cast<GpuWork *>(After.front().get());
  const HPP_GPU(Stream_t) Stream =
      First ? First->stream() : StreamPool::get().next();
  for (const auto &D : After)
    if (auto *G = dynamic_cast<GpuWork *>(D.get());
        G && G->stream() != Stream) {
      flushLaunchRecording();
      HPP_CHECK(HPP_GPU(StreamWaitEvent)(Stream, G->event(), 0));
    }
  auto W = std::make_shared<GpuWork>(File, Line, Stream);
  W->Errors = DeviceErrorSink::make();
  const TaskGate Gate = taskGate(After, W->Errors->slot(), Stream);
  for (auto &D : After)
    D->addDependent();
  W->Deps = std::move(After);
  LaunchOptions O;
  O.Stream = Stream;
  O.Task = true;
  O.TaskWork = W.get();
  O.KeepScratch = &W->Scratch;
  O.Errors = W->Errors;
  O.StreamErrors = &W->ConsumerErrors;
  const std::size_t Count = Rg.size();
  if constexpr (std::is_void<R>::value) {
    TaskResult<void> Res;
    Res.Gate = Gate;
    L->launch(O, Rg, Res);
  } else {
    void *P = nullptr;
    HPP_CHECK(HPP_GPU(Malloc)(&P, (Count ? Count : 1) * sizeof(R)));
    W->Buffer =
        std::shared_ptr<void>(P, [](void *Q) { (void)HPP_GPU(Free)(Q); });
    TaskResult<R> Res;
    Res.Out = static_cast<R *>(P);
    Res.Gate = Gate;
    L->launch(O, Rg, Res);
  }
  if constexpr (std::is_void<R>::value)
    return FutureAccess::make<void>(W, nullptr, 0);
  else
    return FutureAccess::make<std::vector<R>>(W, W->Buffer, Count,
                                              &fetchDeviceResults<R>);
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_TASK_H
