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
///    on the CPU;
///  - a work keeps the works it waits for until it completes, so a chain
///    that nobody waits for until its end would keep every task's work and
///    error record (about 13 KB of device memory each): every
///    TaskCheckpoints::Every-th task records its event, and at the next
///    checkpoint those whose event has completed are finished, which lets
///    go of what they kept (TaskCheckpoints).
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

#include <atomic>
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

/// The devices that ran tasks or asynchronous copies: bit d for device d.
inline std::atomic<unsigned long long> &devicesWithStreams() {
  static std::atomic<unsigned long long> Mask{0};
  return Mask;
}

/// The streams tasks run on, per device (made with that device current).
class StreamPool {
public:
  static StreamPool &get(int Device) {
    static StreamPool *P = new StreamPool[MaxDevices]; // Never destroyed.
    return P[Device];
  }
  /// The current device's (bench/task_launch_probe.cu).
  static StreamPool &get() { return get(currentDevice()); }
  /// The next stream, round robin; with this pool's device current.
  HPP_GPU(Stream_t) next() {
    std::lock_guard<std::mutex> Lock(M);
    HPP_GPU(Stream_t) &S = Streams[Next];
    if (!S) {
      HPP_CHECK(HPP_GPU(StreamCreateWithFlags)(&S, HPP_GPU(StreamNonBlocking)));
      int Device = 0;
      HPP_CHECK(HPP_GPU(GetDevice)(&Device));
      devicesWithStreams().fetch_or(1ull << Device);
    }
    Next = (Next + 1) % HPP_TASK_STREAMS;
    return S;
  }

private:
  std::mutex M;
  HPP_GPU(Stream_t) Streams[HPP_TASK_STREAMS] = {};
  unsigned Next = 0;
};

/// Waits for every task and copy enqueued so far, on every device (a
/// blocking copy, as cudaMemcpy waits for the device).
inline void synchronizeDevicesWithStreams(const char *File, int Line) {
  const unsigned long long Mask = devicesWithStreams().load();
  for (int D = 0; D < MaxDevices; ++D)
    if (Mask >> D & 1) {
      DeviceScope Scope(D);
      checkCall(HPP_GPU(DeviceSynchronize)(), "DeviceSynchronize", File, Line);
    }
}

/// Events without timing, reused; one pool per device (an event is
/// recorded only on a stream of the device it was made on).
class EventPool {
public:
  static EventPool &get(int Device) {
    static EventPool *P = new EventPool[MaxDevices]; // Never destroyed.
    return P[Device];
  }
  /// An event (made with this pool's device current).
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

/// A task (or an asynchronous copy) launched on a stream of device
/// Device. Its event is recorded when something
/// first needs it (a wait, a dependent on another stream, a checkpoint:
/// TaskCheckpoints), so a chain of tasks on one stream costs one event
/// per TaskCheckpoints::Every tasks; recorded later, it also covers what
/// was queued on the stream since, which only waits longer.
class GpuWork : public Work {
public:
  GpuWork(const char *File, int Line, HPP_GPU(Stream_t) Stream, int Device)
      : Work(File, Line), Stream(Stream), Device(Device) {}
  ~GpuWork() override {
    if (Event)
      EventPool::get(Device).give(Event);
    releaseWorks(Deps);
  }
  HPP_GPU(Stream_t) stream() const { return Stream; }
  int device() const { return Device; }
  /// The event (recorded on its device's stream, whatever device is
  /// current: a dependent on another device waits for it).
  HPP_GPU(Event_t) event() {
    std::lock_guard<std::mutex> Lock(EventLock);
    if (!Event) {
      DeviceScope Scope(Device);
      Event = EventPool::get(Device).take();
      flushLaunchRecording();
      HPP_CHECK(HPP_GPU(EventRecord)(Event, Stream));
    }
    return Event;
  }
  /// Whether its event was recorded and has completed (asks, never waits).
  bool eventCompleted() {
    std::lock_guard<std::mutex> Lock(EventLock);
    return Event && HPP_GPU(EventQuery)(Event) == HPP_GPU(Success);
  }
  /// The launch's scratch (LaunchOptions::TaskScratch): released once
  /// the work is complete.
  LaunchScratch Scratch;
  std::shared_ptr<void> Buffer;
  /// Kept until complete: their error records are this task's gate.
  std::vector<std::shared_ptr<Work>> Deps;
  /// What the task's device code recorded (hpp/device_error.h), held by
  /// its launch's scratch; kept as long as the work, for the gates of the
  /// tasks enqueued after it.
  std::shared_ptr<DeviceErrorSink> &Errors = Scratch.Errors;
  /// The records of the consumers its channel writes launched behind it on
  /// its stream (LaunchOptions::StreamErrors), in launch order: their
  /// errors are the task's, for its future and its dependents' gates.
  std::vector<std::shared_ptr<DeviceErrorSink>> ConsumerErrors;

  /// Whether the device recorded an error for the task: its own or a
  /// consumer's (read once it is complete on the device).
  bool recordFailed() const {
    if (Errors && Errors->failed())
      return true;
    for (const auto &C : ConsumerErrors)
      if (C->failed())
        return true;
    return false;
  }

  /// The launch wrote a channel, whose host side (its counter, its
  /// errors) is taken in when the work completes.
  bool hostWorkPending() const override {
    return !Scratch.AfterLaunch.empty() && !done();
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
      if (!DeviceComplete.load(std::memory_order_acquire))
        HPP_CHECK(HPP_GPU(EventSynchronize)(event()));
      if (Errors && Errors->failed())
        throwRecorded(Mine);
      for (const auto &C : ConsumerErrors)
        checkDeviceErrors(C);
      finishAfterLaunch(Scratch);
    } catch (const RuntimeError &R) {
      E = isLaunchError(R) ? std::make_exception_ptr(R.at(file(), line()))
                           : std::current_exception();
    } catch (...) {
      E = std::current_exception();
    }
    Scratch.release(); // Cancels what was not finished (after an error).
    releaseWorks(Mine);
    if (E)
      std::rethrow_exception(E);
  }

private:
  /// The error Errors holds; for a task that did not run, the error of
  /// the dependency in \p Mine that failed.
  [[noreturn]] void throwRecorded(std::vector<std::shared_ptr<Work>> &Mine) {
    if (Errors->kind() != TaskNotRunError)
      throw Errors->error();
    finishFailedChain(Mine);
    if (std::exception_ptr E = failedDependency(Mine))
      std::rethrow_exception(E);
    throw RuntimeError("Task::enqueue", file(), line(),
                       "not run: a task it waits for failed");
  }

  /// Before failedDependency: the tasks that did not run between this one
  /// and the failure that stopped them (each the first failed dependency
  /// of the one before, as failedDependency picks it), finished from that
  /// failure on, so that each finds its failed dependency finished and no
  /// finish recurses (a chain of a million tasks behind a failure). All
  /// of them are complete on the device, as this task came after them: no
  /// wait, no event.
  static void
  finishFailedChain(const std::vector<std::shared_ptr<Work>> &Mine) {
    std::vector<GpuWork *> Path;
    for (const std::vector<std::shared_ptr<Work>> *Deps = &Mine;;) {
      GpuWork *Next = nullptr;
      for (const std::shared_ptr<Work> &D : *Deps) {
        auto *G = static_cast<GpuWork *>(D.get());
        G->DeviceComplete.store(true, std::memory_order_release);
        if (G->done()) {
          if (G->error())
            break;
          continue;
        }
        if (!G->recordFailed())
          continue;
        if (G->Errors && G->Errors->failed() &&
            G->Errors->kind() == TaskNotRunError)
          Next = G;
        break;
      }
      if (!Next)
        break;
      Path.push_back(Next);
      Deps = &Next->Deps;
    }
    // The deepest first; each finish lets go of the one after it.
    for (auto I = Path.rbegin(); I != Path.rend(); ++I)
      (*I)->finish();
  }

  HPP_GPU(Stream_t) Stream;
  int Device;
  std::mutex EventLock;
  HPP_GPU(Event_t) Event = nullptr;
  /// Known complete on the device (a task after it has completed).
  std::atomic<bool> DeviceComplete{false};
};

/// What keeps a long chain of tasks small (see the file comment): every
/// Every-th task a thread submits records its event and is remembered
/// (weakly: a work nobody else keeps goes as it would have); at the next
/// checkpoint, those at the front whose event has completed are finished
/// (as a wait would: an error is kept for its future and its dependents),
/// which lets go of the works they kept. A task whose launch wrote a
/// channel is left to its waiter (finishing it may launch). About 1 us of
/// host time (an event record) per Every tasks.
class TaskCheckpoints {
public:
  static constexpr unsigned Every = 256;
  static TaskCheckpoints &get() {
    static TaskCheckpoints *C = new TaskCheckpoints; // Never destroyed.
    return *C;
  }
  /// After \p W's launch. Never throws: a checkpoint only saves memory.
  void submitted(const std::shared_ptr<GpuWork> &W) noexcept {
    thread_local unsigned Count = 0; // Per thread: no atomic per task.
    if (++Count % Every)
      return;
    try {
      W->event();
      std::vector<std::shared_ptr<GpuWork>> Completed;
      {
        std::lock_guard<std::mutex> Lock(M);
        while (!Pending.empty()) {
          std::shared_ptr<GpuWork> Front = Pending.front().lock();
          if (Front && !Front->eventCompleted())
            break;
          if (Front)
            Completed.push_back(std::move(Front));
          Pending.erase(Pending.begin());
        }
        Pending.push_back(W);
      }
      for (const std::shared_ptr<GpuWork> &C : Completed)
        if (!C->hostWorkPending())
          C->finish();
    } catch (...) {
    }
  }

private:
  std::mutex M;
  std::vector<std::weak_ptr<GpuWork>> Pending;
};

/// Folds the dependency words of \p In into \p *Out (set when one is).
template <int = 0> __global__ void taskGateFold(unsigned *Out, TaskGate In) {
  for (unsigned I = 0; I < In.Count; ++I)
    if (*In.Deps[I])
      *Out = 1u;
}

/// The gate of a task enqueued on \p Stream of device \p Device after
/// \p After, recording in \p Self: the dependencies' error words (a
/// dependency on another device: its flag word, in host memory, which a
/// kernel reads whatever the peer links); past TaskGate::Max of them,
/// folded by small kernels on \p Stream into Self's Fold word, which the
/// gate then reads. The words go straight into the gate while they fit
/// (no allocation on an enqueue's path).
inline TaskGate taskGate(const std::vector<std::shared_ptr<Work>> &After,
                         DeviceErrorSlot *Self, HPP_GPU(Stream_t) Stream,
                         int Device) {
  TaskGate G;
  G.Self = Self;
  std::vector<const unsigned *> More; // Past TaskGate::Max.
  auto Add = [&](const unsigned *Word) {
    if (G.Count < TaskGate::Max && More.empty())
      G.Deps[G.Count++] = Word;
    else {
      if (More.empty())
        More.assign(G.Deps, G.Deps + G.Count);
      More.push_back(Word);
    }
  };
  auto Word = [Device](const DeviceErrorSink &S) -> const unsigned * {
    return S.device() == Device ? &S.slot()->Claim : S.flagWord();
  };
  for (const auto &D : After)
    if (auto *GW = static_cast<GpuWork *>(D.get()); GW && GW->Errors) {
      Add(Word(*GW->Errors));
      for (const auto &C : GW->ConsumerErrors)
        Add(Word(*C));
    }
  if (More.empty())
    return G;
  unsigned *Fold = &Self->Fold;
  for (std::size_t I = 0; I < More.size(); I += TaskGate::Max) {
    TaskGate Part;
    for (std::size_t J = I; J < More.size() && Part.Count < TaskGate::Max; ++J)
      Part.Deps[Part.Count++] = More[J];
    taskGateFold<><<<1, 1, 0, Stream>>>(Fold, Part);
    HPP_CHECK(HPP_GPU(GetLastError)());
  }
  G.Deps[0] = Fold;
  G.Count = 1;
  return G;
}

/// The future's value for a task whose \p N results are at \p Out (device
/// memory). A std::vector<bool> has no data() to copy into: its values
/// come through a plain array.
template <class R> std::vector<R> fetchDeviceResults(void *Out, std::size_t N) {
  if constexpr (std::is_same<R, bool>::value) {
    std::unique_ptr<bool[]> Host(new bool[N ? N : 1]);
    if (N)
      HPP_CHECK(HPP_GPU(Memcpy)(Host.get(), Out, N * sizeof(bool),
                                HPP_GPU(MemcpyDeviceToHost)));
    return std::vector<bool>(Host.get(), Host.get() + N);
  } else {
    std::vector<R> V(N);
    if (N)
      HPP_CHECK(HPP_GPU(Memcpy)(V.data(), Out, N * sizeof(R),
                                HPP_GPU(MemcpyDeviceToHost)));
    return V;
  }
}

/// Frees device memory \p P of device \p Device (a deleter: never
/// throws).
inline void freeOnDevice(void *P, int Device) noexcept {
  int Saved = 0;
  const bool Switch = HPP_GPU(GetDevice)(&Saved) == HPP_GPU(Success) &&
                      Saved != Device &&
                      HPP_GPU(SetDevice)(Device) == HPP_GPU(Success);
  (void)HPP_GPU(Free)(P);
  if (Switch)
    (void)HPP_GPU(SetDevice)(Saved);
}

/// The stream of work on device \p Device after \p After: the first
/// dependency's when it is on that device (the order is then free), else
/// the device's next one; made to wait for the events of the dependencies
/// on other streams (of any device: the host does not block). Called with
/// \p Device current.
inline HPP_GPU(Stream_t)
    streamAfter(const std::vector<std::shared_ptr<Work>> &After, int Device) {
  // (Every Work of the GPU backends is a GpuWork.)
  GpuWork *First =
      After.empty() ? nullptr : static_cast<GpuWork *>(After.front().get());
  const HPP_GPU(Stream_t) Stream = First && First->device() == Device
                                       ? First->stream()
                                       : StreamPool::get(Device).next();
  for (const auto &D : After)
    if (auto *G = static_cast<GpuWork *>(D.get()); G->stream() != Stream) {
      flushLaunchRecording();
      HPP_GPU(Event_t) E = G->event();
      HPP_CHECK(HPP_GPU(StreamWaitEvent)(Stream, E, 0));
    }
  return Stream;
}

/// Enqueues \p L's launch over \p Rg on device \p Device after \p After;
/// see the file comment.
template <class R, int N, class LauncherT>
Future<std::conditional_t<std::is_void<R>::value, void, std::vector<R>>>
submitTask(const std::shared_ptr<const LauncherT> &L, const Range<N, N> &Rg,
           std::vector<std::shared_ptr<Work>> After, int Device,
           const char *File, int Line) {
  static_assert(std::is_void<R>::value || std::is_trivially_copyable<R>::value,
                "Task<R, ...>: R must be trivially copyable to come back "
                "from the device");
  DeviceScope Scope(Device);
  const HPP_GPU(Stream_t) Stream = streamAfter(After, Device);
  auto W = std::make_shared<GpuWork>(File, Line, Stream, Device);
  W->Errors = DeviceErrorSink::make();
  const TaskGate Gate = taskGate(After, W->Errors->slot(), Stream, Device);
  for (auto &D : After)
    D->addDependent();
  W->Deps = std::move(After);
  LaunchOptions O;
  O.Stream = Stream;
  O.Task = true;
  O.TaskWork = W.get();
  O.TaskScratch = &W->Scratch;
  O.StreamErrors = &W->ConsumerErrors;
  const std::size_t Count = Rg.size();
  if constexpr (std::is_void<R>::value) {
    TaskResult<void> Res;
    Res.Gate = Gate;
    L->launch(O, Rg, Res);
  } else {
    void *P = nullptr;
    HPP_CHECK(HPP_GPU(Malloc)(&P, (Count ? Count : 1) * sizeof(R)));
    W->Buffer = std::shared_ptr<void>(
        P, [Device](void *Q) { freeOnDevice(Q, Device); });
    TaskResult<R> Res;
    Res.Out = static_cast<R *>(P);
    Res.Gate = Gate;
    L->launch(O, Rg, Res);
  }
  TaskCheckpoints::get().submitted(W);
  if constexpr (std::is_void<R>::value) {
    return FutureAccess::make<void>(std::move(W), nullptr, 0);
  } else {
    std::shared_ptr<void> Buffer = W->Buffer;
    return FutureAccess::make<std::vector<R>>(std::move(W), std::move(Buffer),
                                              Count, &fetchDeviceResults<R>);
  }
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_TASK_H
