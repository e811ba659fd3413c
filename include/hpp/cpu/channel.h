//===- hpp/cpu/channel.h - Channel<T> and executeWith on the CPU ----------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Spec 1.8's channels:
///
///   Channel<int> c(256);
///   c.executeWith([=](Channel<int> *c) -> bool __device(coord) {
///                   return c->size() >= 256;
///                 },
///                 Range<1, 1>(256, 256), darray,
///                 [=](Index<1> i, std::vector<int> data,
///                     BoundDistArray<int> a) __device(hpp) { ... });
///   parallelFor(range, [&c, in](Index<1> i) __device(hpp) { c.write(in[i]); });
///
/// The reference semantics, which the device runtime implements too:
///  - size() counts the values written and not yet handed to a consumer.
///    After each write the predicate (a coordinator: a pure function of
///    size() and of what it captured by value) is evaluated; when it
///    holds, those values, in the order they were written, become one
///    batch, handed to a launch of the consumer over the range, and size()
///    is 0 again.
///  - The channel holds at most its capacity: handed-over values count
///    until their consumer's launch has finished. A write into a full
///    channel waits for a consumer to finish; when none is running or
///    waiting to run (no executeWith, or a predicate that is false for
///    every size up to the capacity), nothing can ever drain it, and the
///    write throws RuntimeError naming the channel. Values are never
///    dropped or consumed twice.
///  - The consumer's second parameter is `std::vector<T>` (the paper's
///    spelling) or `Span<T>`; with a DistArray, the third is the
///    BoundDistArray of the launch. The two may come the other way round,
///    `(Index<1, 1> i, BoundDistArray<U> a, std::vector<T> data)`, as the
///    paper prints its channel reduction.
///  - Consumers run on the channel's own thread, one batch after the other,
///    while producers go on writing. A blocking parallelFor, and a task,
///    complete only after every consumer their writes triggered has
///    finished, and rethrow a consumer's error (hpp/cpu/sync.h).
///  - Destroying the channel completes what may still use it: the tasks
///    still queued run first (a task that writes the channel through the
///    reference it captured may not have run yet: tasks run late on the
///    CPU), then the batches handed over are consumed. Their errors go to
///    the tasks' futures, as ever; the destructor does not throw.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_CHANNEL_H
#define HPP_CPU_CHANNEL_H

#include "hpp/core/channel_text.h"
#include "hpp/core/error.h"
#include "hpp/core/index.h"
#include "hpp/core/range.h"
#include "hpp/core/span.h"
#include "hpp/cpu/dist_array.h"
#include "hpp/cpu/parallel_for.h"
#include "hpp/cpu/sync.h"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace hpp {

namespace cpu {
/// Whether \p C takes (Index, batch, Rest...), the spec's order; a
/// consumer with a BoundDistArray may also take (Index, BoundDistArray,
/// batch), the paper's.
template <class C, class IndexT, class Data, class... Rest>
constexpr bool takesConsumerArgs() {
  return std::is_invocable<C, const IndexT &, Data, Rest...>::value ||
         std::is_invocable<C, const IndexT &, Rest..., Data>::value;
}

/// Calls \p Fn with (\p I, \p D, \p R...) in the order it takes them
/// (takesConsumerArgs).
template <class F, class IndexT, class Data, class... Rest>
void callConsumer(F &Fn, const IndexT &I, Data &&D, Rest &&...R) {
  if constexpr (std::is_invocable<F &, const IndexT &, Data, Rest...>::value)
    Fn(I, std::forward<Data>(D), std::forward<Rest>(R)...);
  else
    Fn(I, std::forward<Rest>(R)..., std::forward<Data>(D));
}

/// Calls \p Consumer with the batch as its parameter spells it, in the
/// order its parameters come (callConsumer).
template <class C, class IndexT, class T, class... Rest>
void consumeWith(const C &Consumer, const IndexT &I, std::vector<T> &Batch,
                 Rest &&...R) {
  constexpr bool TakesSpan = takesConsumerArgs<C &, IndexT, Span<T>, Rest...>();
  using Data = std::conditional_t<TakesSpan, Span<T>, const std::vector<T> &>;
  auto data = [&]() -> Data {
    if constexpr (TakesSpan)
      return Span<T>(Batch.data(), Batch.size());
    else
      return Batch;
  };
  if constexpr (takesConsumerArgs<const C &, IndexT, Data, Rest...>()) {
    callConsumer(Consumer, I, data(), std::forward<Rest>(R)...);
  } else {
    C Copy(Consumer); // A mutable consumer: a copy per work-item.
    callConsumer(Copy, I, data(), std::forward<Rest>(R)...);
  }
}
} // namespace cpu

/// A bounded channel that device code writes into and whose batches
/// consumers launched by the runtime drain; see the file comment.
template <class T> class Channel {
public:
  /// A channel of \p Capacity values, declared at \p File : \p Line.
  explicit Channel(std::size_t Capacity, HPP_CALLER_LOCATION)
      : Cap(Capacity), DeclFile(File), DeclLine(Line) {
    if (Capacity == 0)
      throw RuntimeError("Channel", File, Line, "a channel's capacity is 0");
  }
  Channel(const Channel &) = delete;
  Channel &operator=(const Channel &) = delete;

  /// Runs the tasks still queued first: one of them may write the channel
  /// through the reference it captured, and on a GPU it has run by now
  /// (their errors go to their futures). Then waits for the batches
  /// already handed over, and warns about values no consumer received.
  ~Channel() {
    cpu::TaskQueue::get().runUntil(nullptr);
    {
      std::lock_guard<std::mutex> Lock(M);
      Stop = true;
    }
    WorkCv.notify_all();
    if (Worker.joinable())
      Worker.join(); // After the batches already handed over.
    if (!Pending.empty())
      detail::warnChannelLeftovers(name(), Pending.size());
  }

  /// Values written and not yet handed to a consumer.
  std::size_t size() const { return Unclaimed.load(std::memory_order_relaxed); }
  std::size_t capacity() const { return Cap; }

  /// Appends \p V; waits while the channel is full (see the file comment).
  void write(const T &V, HPP_CALLER_LOCATION) {
    std::unique_lock<std::mutex> Lock(M);
    while (Pending.size() + InFlight >= Cap) {
      if (InFlight == 0)
        throw RuntimeError("Channel::write", File, Line, fullMessage());
      if (std::this_thread::get_id() == WorkerId)
        throw RuntimeError("Channel::write", File, Line,
                           detail::channelSelfFullMessage(name()));
      SpaceCv.wait(Lock);
    }
    Pending.push_back(V);
    Unclaimed.store(Pending.size(), std::memory_order_relaxed);
    if (Pred && Pred(this))
      handOver();
  }

  /// Runs \p Consumer over \p R with each batch for which \p Pred holds.
  template <int N, int L, class P, class C>
  void executeWith(P Pred, Range<N, L> R, C Consumer, HPP_CALLER_LOCATION) {
    static_assert(std::is_invocable_r<bool, P &, Channel<T> *>::value,
                  "Channel<T>::executeWith: the predicate must be a "
                  "`[=](Channel<T> *c) -> bool __device(coord)` coordinator "
                  "for this channel's T");
    static_assert(std::is_invocable<C &, const Index<N, L> &, Span<T>>::value ||
                      std::is_invocable<C &, const Index<N, L> &,
                                        std::vector<T>>::value,
                  "Channel<T>::executeWith: the consumer must take the "
                  "range's Index and a std::vector<T> or Span<T>");
#if !defined(__HPP_REWRITE__)
    (void)cpu::launchShape(R, File, Line);
    auto Run = [R, Consumer, File, Line](std::vector<T> &Batch) {
      auto Item = [&](const Index<N, L> &I) {
        cpu::consumeWith(Consumer, I, Batch);
      };
      cpu::launch(R, Item, File, Line);
    };
    install(std::function<bool(Channel<T> *)>(std::move(Pred)), Run, File,
            Line);
#else
    (void)Pred, (void)R, (void)Consumer;
#endif
  }

  /// The paper's form: each consumer launch also binds \p D, whose regions
  /// are the work-group's Segments.
  template <int N, class P, class U, class C>
  void executeWith(P Pred, Range<N, N> R, DistArray<U> &D, C Consumer,
                   HPP_CALLER_LOCATION) {
    static_assert(std::is_invocable_r<bool, P &, Channel<T> *>::value,
                  "Channel<T>::executeWith: the predicate must be a "
                  "`[=](Channel<T> *c) -> bool __device(coord)` coordinator "
                  "for this channel's T");
    static_assert(cpu::takesConsumerArgs<C &, Index<N, N>, Span<T>,
                                         BoundDistArray<U>>() ||
                      cpu::takesConsumerArgs<C &, Index<N, N>, std::vector<T>,
                                             BoundDistArray<U>>(),
                  "Channel<T>::executeWith: with a DistArray<U>, the consumer "
                  "must take the range's Index, then a std::vector<T> or "
                  "Span<T> and a BoundDistArray<U>, in either order");
#if !defined(__HPP_REWRITE__)
    (void)cpu::launchShape(R, File, Line);
    DistArray<U> *Array = &D;
    auto Run = [R, Array, Consumer, File, Line](std::vector<T> &Batch) {
      auto Item = [&](const Index<N, N> &I, BoundDistArray<U> A) {
        cpu::consumeWith(Consumer, I, Batch, A);
      };
      cpu::DistBody<N, U, decltype(Item)> Wrapped(Item, *Array);
      cpu::launch(R, Wrapped, File, Line);
    };
    install(std::function<bool(Channel<T> *)>(std::move(Pred)), Run, File,
            Line);
#else
    (void)Pred, (void)R, (void)D, (void)Consumer;
#endif
  }

private:
  using Batch = std::vector<T>;

  std::string name() const {
    return detail::channelName(Cap, DeclFile, DeclLine);
  }

  std::string fullMessage() const {
    return detail::channelFullMessage(name(), bool(Pred), Cap);
  }

  void install(std::function<bool(Channel<T> *)> P,
               std::function<void(Batch &)> Run, const char *File, int Line) {
    std::lock_guard<std::mutex> Lock(M);
    if (Pred)
      throw RuntimeError("Channel::executeWith", File, Line,
                         name() + " already has a consumer");
    Pred = std::move(P);
    Consume = std::move(Run);
    if (!Pending.empty() && Pred(this))
      handOver();
  }

  /// The unclaimed values become a batch for the consumer thread. Called
  /// with M held.
  void handOver() {
    InFlight += Pending.size();
    Batches.push_back(std::move(Pending));
    Pending.clear();
    Unclaimed.store(0, std::memory_order_relaxed);
    cpu::ConsumerTracker::get().started();
    if (!Worker.joinable()) {
      Worker = std::thread([this] { consumerLoop(); });
      WorkerId = Worker.get_id();
    }
    WorkCv.notify_all();
  }

  void consumerLoop() {
    std::unique_lock<std::mutex> Lock(M);
    for (;;) {
      WorkCv.wait(Lock, [&] { return Stop || !Batches.empty(); });
      if (Batches.empty())
        return; // Stop, and nothing left to consume.
      Batch B = std::move(Batches.front());
      Batches.pop_front();
      Lock.unlock();
      std::exception_ptr E;
      try {
        Consume(B);
      } catch (...) {
        E = std::current_exception();
      }
      Lock.lock();
      InFlight -= B.size();
      SpaceCv.notify_all();
      cpu::ConsumerTracker::get().finished(E);
    }
  }

  const std::size_t Cap;
  const char *DeclFile;
  int DeclLine;
  std::mutex M;
  std::condition_variable SpaceCv, WorkCv;
  Batch Pending;                         ///< Unclaimed values.
  std::atomic<std::size_t> Unclaimed{0}; ///< Pending.size(), for size().
  std::size_t InFlight = 0;              ///< Values in handed-over batches.
  std::deque<Batch> Batches;             ///< Handed over, not yet consumed.
  std::function<bool(Channel<T> *)> Pred;
  std::function<void(Batch &)> Consume;
  std::thread Worker;
  std::thread::id WorkerId;
  bool Stop = false;
};

} // namespace hpp

#endif // HPP_CPU_CHANNEL_H
