//===- hpp/channel.h - Channel<T> and executeWith in rewritten code -------===//
//
// Part of hpp-rewrite. Device runtime, every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Spec 1.8's channels as rewritten code uses them; the meaning is the CPU
/// reference runtime's (include/hpp/cpu/channel.h), and so are the error
/// and warning texts. The host code keeps the dialect's spelling
/// (`Channel<int> c(n); c.executeWith(pred, range, [darray,] consumer);`),
/// with the consumer lambda outlined into a kernel and passed as
/// detail::consumerKernel(kernel, captures...); a kernel that writes the
/// channel takes a detail::ChannelWriter<T> (hpp/channel_kernel.h) and is
/// launched with detail::channelWriter(c, Bound), Bound the most writes one
/// of its work-items makes.
///
/// How it runs:
///  - the values live in storage on the device. A write reserves an index
///    with one atomic add on the channel's counter and stores there;
///  - the coordinator is a pure function of size(): the runtime evaluates
///    it on a probe channel whose size() is s, for s = 1, 2, ..., and k* is
///    the first s at which it holds. The sizes are asked lazily, each once:
///    before a launch that writes the channel, up to the most values it can
///    leave waiting (those waiting + InRange * Bound, at most the
///    capacity), so the number of evaluations is bounded by the values the
///    launches can write, never by the capacity (a channel of capacity 2^37
///    costs what one of 100 does). The batches are then the reservation
///    indices [b k*, (b+1) k*), each consumed once, in order;
///  - before a launch that writes the channel, the storage is made to hold
///    the values left over plus InRange * Bound, so a producer never waits
///    for a consumer (the reference's blocking of a full channel is not
///    needed: the same batches are consumed, only later);
///  - no k* (no executeWith, or a predicate false up to the capacity): a
///    write past the capacity is not stored, and the launch throws the
///    reference's RuntimeError. A k* not found yet below the reach of a
///    launch means the same for it: its writes cannot fill the channel nor
///    complete a batch;
///  - the launch (hpp/launch.h, AfterLaunchHook) runs on a runtime-owned
///    stream; up to HPP_CHANNEL_EAGER (default 2) consumer launches for the
///    first batches it can complete are enqueued behind it, each checking
///    on the device that its batch is complete (ChannelBatch::ready); then
///    the host waits, reads the counter, reports the error flags, launches
///    the remaining complete batches in order, and keeps the leftover
///    (fewer than k*) for the next launch. Each consumer launch is an
///    ordinary one, so a consumer may write other channels: it is then
///    made blocking, and its channels' batches are dispatched before the
///    next batch of this one; a consumer that writes no channel is
///    launched in stream order, with one wait after the last. The CPU
///    backend makes no eager launches, and every launch blocks;
///  - a consumer may write into its own channel (its values join the
///    batches the running dispatch hands out; as in the reference, the
///    launch fails when its batch and its writes exceed the capacity,
///    since nothing drains the channel while it runs), or into a channel that the
///    launch feeding it also wrote (that launch's values are taken in
///    first);
///  - a Task's launch that writes a channel (GPU) runs on the task's
///    stream and is not waited for: behind it, on that stream, go consumer
///    launches for every batch it can complete (values waiting + InRange *
///    Bound, over k*), each guarded by ChannelBatch::ready, so that the
///    future's event, and a task enqueued after the future, come after
///    every consumer the task's writes triggered. Such a consumer must
///    write no channel (RuntimeError at the enqueue otherwise, whatever
///    the predicate). The host
///    side (the counter, the errors: those of the task's future) is taken
///    in when the task's work completes, and before the host uses the
///    channel again (a launch, executeWith, size(), the destructor): that
///    waits for the task first. The CPU backend runs the task's launch as
///    a parallelFor's when the task runs (docs/tasks.md), so there the
///    destructor first runs the tasks still queued (one of them may write
///    the channel through the reference it captured), as the reference
///    does;
///  - a channel passed twice to one launch is refused (RuntimeError). One
///    host thread at a time may use a channel, or wait for a task that
///    writes it (the reference's are thread-safe).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_CHANNEL_H
#define HPP_RUNTIME_CHANNEL_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/channel_kernel.h"
#include "hpp/core/channel_text.h"
#include "hpp/core/error.h"
#include "hpp/core/future.h"
#include "hpp/core/range.h"
#include "hpp/launch.h"

#if defined(HPP_BACKEND_HIP) || defined(HPP_BACKEND_CUDA)
#include "hpp/backend/gpu_channel.h"
#else
#include "hpp/backend/cpu_channel.h"
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace hpp {

namespace detail {
template <class T>
void prepareLaunchArgument(ChannelWriter<T> &, unsigned, std::size_t,
                           LaunchOptions &, LaunchScratch &);
template <class T> void checkTaskArgument(const ChannelWriter<T> &);
} // namespace detail

/// A bounded channel that kernels write into and whose batches the
/// runtime hands to launches of its consumer; see the file comment.
template <class T> class Channel {
  static_assert(std::is_trivially_copyable<T>::value,
                "Channel<T> on the device runtime: T must be trivially "
                "copyable (its values are copied in device memory)");

public:
  /// A channel of \p Capacity values, declared at \p File : \p Line.
  explicit Channel(std::size_t Capacity, HPP_CALLER_LOCATION)
      : Cap(Capacity), DeclFile(File), DeclLine(Line) {
    if (Capacity == 0)
      throw RuntimeError("Channel", File, Line, "a channel's capacity is 0");
  }
  Channel(const Channel &) = delete;
  Channel &operator=(const Channel &) = delete;

  /// Completes the tasks that may write the channel (a task that captured
  /// it by reference and was enqueued before: on the CPU backend every
  /// task still queued runs, on a GPU the channel waits for the one whose
  /// launch writes it), as the reference does; their errors go to their
  /// futures. Then warns, as the reference does, about values no consumer
  /// received, and frees the storage.
  ~Channel() {
    if (!Probe)
      ChannelMemory::completeTasks();
    awaitTask();
    if (!Probe && Count > Head)
      detail::warnChannelLeftovers(name(), Count - Head);
    ChannelMemory::freeDevice(Storage);
    for (T *P : Retired)
      ChannelMemory::freeDevice(P);
    ChannelMemory::freeDevice(DevState);
    if (ChannelMemory::Mirrored)
      ChannelMemory::freeHost(HostState);
  }

  /// Values written and not yet handed to a consumer (on the probe that
  /// executeWith gives the predicate: the size it asks about).
  std::size_t size() const {
    const_cast<Channel *>(this)->awaitTask();
    return Count - Head;
  }
  std::size_t capacity() const { return Cap; }

  /// Launches the consumer \p C over \p R with each batch of k* values,
  /// k* the smallest size at which \p P holds.
  template <class Pred, int N, int L, class K, class... A>
  void executeWith(Pred P, const Range<N, L> &R,
                   detail::ConsumerKernel<K, A...> C, HPP_CALLER_LOCATION) {
    checkPredicate<Pred>();
    detail::checkConsumerShape(R, File, Line);
    install(P,
            std::make_unique<detail::ConsumerOf<T, Range<N, L>, void, K, A...>>(
                R, nullptr, std::move(C)),
            File, Line);
  }
  /// The paper's form: each consumer launch also binds \p D.
  template <class Pred, int N, class U, class K, class... A>
  void executeWith(Pred P, const Range<N, N> &R, DistArray<U> &D,
                   detail::ConsumerKernel<K, A...> C, HPP_CALLER_LOCATION) {
    checkPredicate<Pred>();
    detail::checkConsumerShape(R, File, Line);
    install(P,
            std::make_unique<detail::ConsumerOf<T, Range<N, N>, U, K, A...>>(
                R, &D, std::move(C)),
            File, Line);
  }

private:
  template <class U>
  friend void detail::prepareLaunchArgument(detail::ChannelWriter<U> &,
                                            unsigned, std::size_t,
                                            detail::LaunchOptions &,
                                            detail::LaunchScratch &);
  template <class U>
  friend void detail::checkTaskArgument(const detail::ChannelWriter<U> &);
  using ChannelMemory = detail::ChannelMemory;
  using State = detail::ChannelState;

  /// The probe: a channel of \p Capacity without storage, whose size()
  /// install sets to each size it asks the predicate about.
  struct ProbeTag {};
  Channel(ProbeTag, std::size_t Capacity)
      : Cap(Capacity), DeclFile(nullptr), DeclLine(0), Probe(true) {}

  template <class Pred> static void checkPredicate() {
    static_assert(std::is_invocable_r<bool, Pred &, Channel<T> *>::value,
                  "Channel<T>::executeWith: the predicate must be a "
                  "`[=](Channel<T> *c) -> bool __device(coord)` coordinator "
                  "for this channel's T");
  }

  std::string name() const {
    return detail::channelName(Cap, DeclFile, DeclLine);
  }

  std::string fullMessage() const {
    return detail::channelFullMessage(name(), bool(Consumer), Cap);
  }

  /// Keeps the consumer and k*; hands over the values already waiting if
  /// the predicate holds for them, as the reference does.
  template <class PredT>
  void install(PredT &P, std::unique_ptr<detail::ChannelConsumer<T>> C,
               const char *File, int Line) {
    awaitTask();
    if (Consumer)
      throw RuntimeError("Channel::executeWith", File, Line,
                         name() + " already has a consumer");
    Prober.reset(new Channel(ProbeTag{}, Cap));
    Coord = std::move(P);
    Asked = 0;
    Batch = 0;
    Consumer = std::move(C);
    ExecFile = File;
    ExecLine = Line;
    if (Count > Head) {
      Prober->Count = Count - Head;
      if (Coord(Prober.get())) {
        const std::size_t First = Head;
        Head = Count;
        consume(First, Count - First);
      }
    }
  }

  /// k* if it is at most \p Reach, else 0: the predicate is asked about
  /// the sizes it was not asked about yet, in order, up to \p Reach (at
  /// most the capacity), until it holds. Each size is asked once over the
  /// channel's life (see the file comment).
  std::size_t threshold(std::size_t Reach) {
    const std::size_t Last = std::min(Reach, Cap);
    while (!Batch && Coord && Asked < Last) {
      Prober->Count = ++Asked;
      if (Coord(Prober.get()))
        Batch = Asked;
    }
    return Batch;
  }

  /// Launches the consumer on the \p N values at \p First: blocking, or
  /// with \p Keep, in the order of the channel's stream, its scratch kept
  /// there until the caller waits.
  void
  consume(std::size_t First, std::size_t N,
          std::vector<std::shared_ptr<detail::LaunchScratch>> *Keep = nullptr) {
    detail::Scoped<unsigned> Nesting(Dispatching, Dispatching + 1);
    detail::LaunchOptions O;
    if (Keep) {
      O.Stream = detail::afterLaunchStream();
      Keep->emplace_back();
      O.KeepScratch = &Keep->back();
    }
    try {
      Consumer->launch(O,
                       detail::ChannelBatch<T>{Storage + First, N, nullptr, 0, nullptr});
    } catch (const RuntimeError &E) {
      if (detail::isLaunchError(E))
        throw E.at(ExecFile, ExecLine);
      throw;
    }
  }

  /// Launches the consumer on every complete batch not handed out yet, in
  /// order; a consumer's error is rethrown after the last batch. On a GPU,
  /// a consumer that writes no channel is launched in stream order without
  /// a wait between batches (at most every 256 launches, which bounds the
  /// scratch kept): still one batch after the other, without a device-wide
  /// synchronisation each. One that writes a channel is launched blocking,
  /// so its channels' batches are dispatched before the next. A consumer
  /// that writes into this channel finds the loop running: the batches it
  /// completes are the loop's, not a nested one's (no recursion).
  void dispatch() {
    if (Looping)
      return;
    detail::Scoped<bool> Loop(Looping, true);
    std::exception_ptr First;
    const bool InOrder = Consumer && Consumer->eager() &&
                         detail::afterLaunchStream(); // Null on the CPU.
    std::vector<std::shared_ptr<detail::LaunchScratch>> Kept;
    threshold(Count - Head);
    auto settle = [&] {
      try {
        detail::waitForAfterLaunch(detail::afterLaunchStream());
      } catch (...) {
        if (!First)
          First = std::current_exception();
      }
      Kept.clear();
    };
    while (Batch && Consumer && Count - Head >= Batch) {
      const std::size_t At = Head;
      Head += Batch; // A consumer that writes here dispatches after it.
      try {
        consume(At, Batch, InOrder ? &Kept : nullptr);
      } catch (...) {
        if (!First)
          First = std::current_exception();
      }
      if (Kept.size() >= 256)
        settle();
    }
    if (!Kept.empty())
      settle();
    if (First)
      std::rethrow_exception(First);
  }

  /// Makes the storage hold \p Needed values, the waiting ones [Head,
  /// Count) moved to start at \p To. Storage that a batch being consumed
  /// may still read (while dispatching) is freed at the next collect.
  void place(std::size_t To, std::size_t Needed, void *Stream) {
    const std::size_t Keep = Count - Head;
    const bool Fits = Needed <= Stored && (To == Head || To + Keep <= Head);
    if (Fits && To != Head && Keep)
      ChannelMemory::copy(Storage + To, Storage + Head, Keep * sizeof(T),
                          Stream);
    if (!Fits) {
      const std::size_t Size = std::max(Needed, 2 * Stored);
      T *New = static_cast<T *>(ChannelMemory::device(Size * sizeof(T)));
      if (Keep)
        ChannelMemory::copy(New + To, Storage + Head, Keep * sizeof(T), Stream);
      if (Storage && Dispatching) {
        Retired.push_back(Storage);
      } else if (Storage) {
        ChannelMemory::wait(Stream);
        ChannelMemory::freeDevice(Storage);
      }
      Storage = New;
      Stored = Size;
    }
    Head = To;
    Count = To + Keep;
  }

  /// prepareLaunchArgument: readies the channel for a launch of \p InRange
  /// work-items that writes it through \p W.
  void prepare(detail::ChannelWriter<T> &W, std::size_t InRange,
               detail::LaunchOptions &Options, detail::LaunchScratch &Scratch);

  /// From prepare: the eager consumer launches on \p Stream, prepared.
  void prepareEager(void *Stream);

  /// Behind the producer (GPU): the eager consumer launches, then the copy
  /// of the state to the host.
  void launched(void *Stream);

  /// After the launch's wait: takes in what it wrote and reports its
  /// errors.
  void collect();

  void finish() {
    if (Active)
      collect();
    dispatch();
  }

  /// Before the host uses the channel: the task whose launch writes it, if
  /// any, is finished (waited for, and the channel's host side taken in).
  /// Its errors are the task's: its future reports them.
  void awaitTask() {
    if (detail::Work *Task = Pending) {
      Task->finish();
      if (Pending == Task) // It failed before its launch was finished.
        cancel();
    }
  }

  /// At a Task's enqueue (and launch): its consumers run behind it in the
  /// order of its stream, which a consumer that writes a channel cannot
  /// (its channels' batches are dispatched by the host).
  void checkTaskWrites() const {
    if (Consumer && !Consumer->eager())
      throw RuntimeError(
          "Task::enqueue", __FILE__, __LINE__,
          "a Task that writes " + name() +
              " is not supported when the channel's consumer writes a "
              "channel too: the consumers of a task's writes run in the "
              "order of the task, and such a consumer's own batches are "
              "dispatched by the host after it; write into the channel from "
              "a parallelFor");
  }

  /// The launch was abandoned: what it wrote is dropped.
  void cancel() noexcept {
    Active = nullptr;
    SelfWriteFrom = NoSelfWrite;
    Pending = nullptr;
    TaskErrors = nullptr;
    Eager = 0;
    EagerLaunches.clear();
    EagerScratch.clear();
    MustWait = true;
    StateStale = true;
  }

  static void launchedHook(void *C, void *S) {
    static_cast<Channel *>(C)->launched(S);
  }
  static void finishHook(void *C) { static_cast<Channel *>(C)->finish(); }
  static void cancelHook(void *C) noexcept {
    static_cast<Channel *>(C)->cancel();
  }

  const std::size_t Cap;
  const char *DeclFile;
  int DeclLine;
  bool Probe = false;
  /// The values [Head, Count) of the storage are written and not handed
  /// to a consumer; Count is the counter as of the last launch.
  std::size_t Head = 0, Count = 0;
  std::size_t Batch = 0; ///< k*; 0: none (or not found yet: threshold)
  /// The predicate; the sizes 1..Asked were asked without it holding; the
  /// probe channel it is asked about.
  std::function<bool(Channel *)> Coord;
  std::size_t Asked = 0;
  std::unique_ptr<Channel> Prober;
  std::unique_ptr<detail::ChannelConsumer<T>> Consumer;
  const char *ExecFile = nullptr; ///< the executeWith, for consumer errors
  int ExecLine = 0;
  T *Storage = nullptr;
  std::size_t Stored = 0; ///< values the storage holds
  std::vector<T *> Retired;
  State *DevState = nullptr, *HostState = nullptr;
  State *MirrorOnDevice = nullptr; ///< HostState's device address
  /// The device counter as of the last launch, and that launch's Shift
  /// (ChannelWriter::Shift); with StateStale, the state must be written to
  /// the device before the next launch.
  unsigned long long DevCount = 0, Shift = 0;
  bool StateStale = true;
  /// The launch that writes the channel now (between prepare and collect).
  const detail::LaunchScratch *Active = nullptr;
  std::size_t Eager = 0; ///< eager consumer launches behind it
  /// The work of the task whose launch writes the channel, until the host
  /// has taken in what it wrote (awaitTask).
  detail::Work *Pending = nullptr;
  /// Where that task's work collects its consumers' error records.
  std::vector<std::shared_ptr<detail::DeviceErrorSink>> *TaskErrors = nullptr;
  std::vector<std::shared_ptr<detail::LaunchScratch>> EagerScratch;
  /// The eager consumer launches, prepared before the producer's launch.
  std::vector<detail::PreparedLaunch> EagerLaunches;
  unsigned Dispatching = 0; ///< batches being consumed (nesting depth)
  /// For a launch made while a batch is consumed (its consumer writes
  /// here): the count before it; else NoSelfWrite.
  static constexpr std::size_t NoSelfWrite = ~std::size_t(0);
  std::size_t SelfWriteFrom = NoSelfWrite;
  bool Looping = false;     ///< dispatch() is running
  bool MustWait = false;
};

namespace detail {

/// The launch argument for a kernel parameter ChannelWriter<T>: \p C, of
/// whose values one work-item writes at most \p Bound.
template <class T>
ChannelWriter<T> channelWriter(Channel<T> &C, unsigned Bound) {
  return {nullptr, nullptr, 0, C.capacity(), 0, 0, 0, &C, Bound};
}

/// Launch-time preparation of a ChannelWriter (hpp/launch.h): room for the
/// launch's writes, the device pointers, and the after-launch work.
template <class T>
void prepareLaunchArgument(ChannelWriter<T> &W, unsigned, std::size_t InRange,
                           LaunchOptions &Options, LaunchScratch &Scratch) {
  W.Host->prepare(W, InRange, Options, Scratch);
}

/// At a Task's enqueue (hpp/task.h): refuses a channel the task cannot
/// write (every backend alike).
template <class T> void checkTaskArgument(const ChannelWriter<T> &W) {
  W.Host->checkTaskWrites();
}

} // namespace detail
} // namespace hpp

#include "hpp/channel_launch.h"

#endif // HPP_RUNTIME_CHANNEL_H
