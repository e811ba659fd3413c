//===- hpp/channel_kernel.h - The kernel side of rewritten channels -------===//
//
// Part of hpp-rewrite. Device runtime, every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the kernels of a rewritten program see of a Channel (hpp/channel.h
/// has the host object and the file comment):
///  - detail::ChannelWriter<T>, the parameter of a kernel that writes the
///    channel (`c.write(v)`, `c.size()`);
///  - detail::ChannelBatch<T>, the batch parameter of a consumer kernel
///    (`ready()`, `span()`);
///  - detail::ConsumerKernel, made by detail::consumerKernel(kernel,
///    captures...) as a Task's taskKernel, and the type-erased launch of it
///    that the channel keeps (detail::ChannelConsumer);
///  - the checks of a consumer's range, and HPP_CHANNEL_EAGER.
/// The kernel parameters are trivially copyable, as they must be.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_CHANNEL_KERNEL_H
#define HPP_RUNTIME_CHANNEL_KERNEL_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/atomic_ops.h"
#include "hpp/core/error.h"
#include "hpp/core/range.h"
#include "hpp/core/range_check.h"
#include "hpp/core/span.h"
#include "hpp/dist_array.h"
#include "hpp/task.h"

#include <cstddef>
#include <cstdlib>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace hpp {

template <class T> class Channel;

namespace detail {

/// A channel's counter and error flags, which the writes update on the
/// device (backend/*_channel.h says where the host reads them).
struct ChannelState {
  /// Reservations made since the host last reset the state: the next
  /// write stores at storage index Reserved - ChannelWriter::Shift.
  unsigned long long Reserved;
  /// A write found the channel full and nothing to drain it (no k*).
  unsigned Full;
  /// A write came past the storage reserved for the launch.
  unsigned Overflow;
  /// The write that found the channel full first (reservation index =
  /// capacity: exactly one write), for the reference's error. On a GPU the
  /// file is a device address (a string literal), which the host reads
  /// with readDeviceString (hpp/device_error.h).
  const char *FullFile;
  int FullLine;
};

// A write takes its caller's file:line, for the error of a write into a
// full channel, which the reference reports at the write (stored only on
// that error's path).
#define HPP_CHANNEL_CALLER                                                     \
  , const char *File = __builtin_FILE(), int Line = __builtin_LINE()

/// The kernel parameter of a launch that writes a Channel<T>: named as the
/// captured channel, so the body's `c.write(v)` and `c.size()` compile
/// unchanged. Filled in by prepareLaunchArgument (hpp/channel.h).
template <class T> struct ChannelWriter {
  T *Data;                 ///< the storage (device memory)
  ChannelState *State;     ///< its counter and flags (device memory)
  std::size_t Stored;      ///< values the storage holds
  std::size_t Capacity;    ///< the channel's capacity
  std::size_t Batch;       ///< k*: values per batch; 0: none
  unsigned long long Base; ///< the first value not handed to a consumer
  /// The counter's value minus the storage index it reserves: the counter
  /// only grows (the host does not reset it before each launch), while the
  /// host moves the values it keeps to the start of the storage.
  unsigned long long Shift;
  Channel<T> *Host; ///< host only: the channel, for the launch
  unsigned Bound;   ///< the most writes one work-item makes

  /// Appends \p V: reserves an index with one atomic add and stores there.
  /// Without k*, a write past the capacity flags the reference's error
  /// (the launch throws it) instead of storing; one past the storage flags
  /// an overflow (never happens when Bound is right).
  HPP_DEVICE void write(const T &V HPP_CHANNEL_CALLER) const {
    const unsigned long long I =
        AtomicOps<unsigned long long>::add(&State->Reserved, 1ull) - Shift;
    if (Batch == 0 && I - Base >= Capacity) {
      if (I - Base == Capacity) {
        State->FullFile = File;
        State->FullLine = Line;
      }
      AtomicOps<unsigned>::store(&State->Full, 1u);
      return;
    }
    if (I >= Stored) {
      AtomicOps<unsigned>::store(&State->Overflow, 1u);
      return;
    }
    Data[I] = V;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // The eager consumers behind this launch (programmatic dependent
    // launches) may be scheduled once every work-group has written or
    // ended; they still wait for the whole launch (ChannelBatch::ready).
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
  }

  /// Values written and not yet in a batch: the reservations past the last
  /// batch boundary, or at most the capacity without k*.
  HPP_HD std::size_t size() const {
    const unsigned long long N =
        AtomicOps<unsigned long long>::load(&State->Reserved) - Shift - Base;
    if (Batch)
      return std::size_t(N % Batch);
    return N < Capacity ? std::size_t(N) : Capacity;
  }
};

#undef HPP_CHANNEL_CALLER

template <class T> struct IsChannelWriter : std::false_type {};
template <class T> struct IsChannelWriter<ChannelWriter<T>> : std::true_type {};

/// The batch parameter of a consumer kernel: \p Count values at \p Data.
template <class T> struct ChannelBatch {
  T *Data;
  std::size_t Count;
  /// An eager launch's channel state (null: dispatched by the host after
  /// its producer, always ready).
  const ChannelState *State;
  /// The counter value that completes an eager launch's batch.
  unsigned long long End;
  /// The first eager launch's copy of the state for the host (pinned host
  /// memory the device can write), made by its first work-item once the
  /// producer is complete: the host reads the counter there, with no copy
  /// of its own in the stream. Null: no copy.
  ChannelState *Mirror;

  /// Whether the batch is complete. An eager launch runs right after its
  /// producer in stream order, so the counter is final when it reads it;
  /// the kernel returns at once when this is false.
  /// An eager launch may be a programmatic dependent one (CUDA, compute
  /// capability 9.0 and later: LaunchOptions::WaitsInKernel), which starts
  /// before its producer has finished: it first waits for it here, so
  /// every work-item must call ready() before it reads the batch (the
  /// rewritten consumer does, first thing). Elsewhere the wait is a no-op.
  HPP_DEVICE bool ready() const {
    if (!State)
      return true;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
    const unsigned long long Reserved =
        AtomicOps<unsigned long long>::load(&State->Reserved);
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    if (Mirror && !(threadIdx.x | threadIdx.y | threadIdx.z | blockIdx.x |
                    blockIdx.y | blockIdx.z)) {
      // Every load before the first store: the mirror may alias the state
      // as far as the compiler knows, so a load after a store to it waits
      // for that store's value, and the batch would start three memory
      // round trips after the producer instead of one.
      const unsigned Full = AtomicOps<unsigned>::load(&State->Full);
      const unsigned Overflow = AtomicOps<unsigned>::load(&State->Overflow);
      Mirror->Reserved = Reserved;
      Mirror->Full = Full;
      Mirror->Overflow = Overflow;
    }
#endif
    return Reserved >= End;
  }
  /// The values, as the consumer's data parameter.
  HPP_HD Span<T> span() const { return Span<T>(Data, Count); }
};

/// An outlined consumer kernel and the captures it was made with.
template <class KernelT, class... A> struct ConsumerKernel {
  KernelT Kernel;
  std::tuple<A...> Args;
};

/// What the rewritten executeWith passes for the consumer lambda: the
/// kernel and the captures, in the kernel's parameter order.
template <class KernelT, class... A>
ConsumerKernel<KernelT, std::decay_t<A>...> consumerKernel(KernelT Kernel,
                                                           A &&...Args) {
  return {Kernel, std::tuple<std::decay_t<A>...>(std::forward<A>(Args)...)};
}

/// A channel's consumer, its type erased: launches it on one batch.
template <class T> class ChannelConsumer {
public:
  virtual ~ChannelConsumer() = default;
  /// Prepares the launch over the executeWith range with \p Options
  /// (hpp/launch.h, prepareLaunch); calling the result launches.
  virtual PreparedLaunch prepare(const LaunchOptions &Options,
                                 const ChannelBatch<T> &B) const = 0;
  /// Launches over the executeWith range with \p Options.
  void launch(const LaunchOptions &Options, const ChannelBatch<T> &B) const {
    if (PreparedLaunch Launch = prepare(Options, B))
      Launch();
  }
  /// It writes no channel, so it may be launched eagerly, behind its
  /// producer and before the host has seen the counter.
  virtual bool eager() const = 0;
};

template <class KernelT> struct WaitOnlyVariants;

/// Whether consumer kernel \p KernelT takes its BoundDistArray before its
/// batch: `(range, BoundDistArray<U>, ChannelBatch<T>, captures...)`, the
/// order of the paper's consumer, `(Index, BoundDistArray<U>,
/// std::vector<T>)`. hpp-rewrite outlines either order of the lambda into
/// a kernel that takes the batch first; both launch here.
template <class KernelT> struct BoundBeforeBatch : std::false_type {};
template <class R, class U, class... P>
struct BoundBeforeBatch<void (*)(R, BoundDistArray<U>, P...)>
    : std::true_type {};
template <class KernelT>
struct BoundBeforeBatch<Cooperative<KernelT>> : BoundBeforeBatch<KernelT> {};
template <class KernelT>
struct BoundBeforeBatch<WaitOnlyVariants<KernelT>>
    : BoundBeforeBatch<KernelT> {};

/// The consumer of a ConsumerKernel over \p RangeT, with the DistArray \p D
/// (U = void: none, and \p D is null).
template <class T, class RangeT, class U, class KernelT, class... A>
class ConsumerOf final : public ChannelConsumer<T> {
public:
  ConsumerOf(const RangeT &R, DistArray<U> *D, ConsumerKernel<KernelT, A...> K)
      : R(R), D(D), K(std::move(K)) {}
  PreparedLaunch prepare(const LaunchOptions &Options,
                         const ChannelBatch<T> &B) const override {
    return std::apply(
        [&](const A &...Args) {
          if constexpr (std::is_void<U>::value)
            return prepareTaskKernel(Options, K.Kernel, R, B, Args...);
          else if constexpr (BoundBeforeBatch<KernelT>::value)
            return prepareTaskKernel(Options, K.Kernel, R,
                                     static_cast<const DistArray<U> &>(*D), B,
                                     Args...);
          else
            return prepareTaskKernel(Options, K.Kernel, R, B,
                                     static_cast<const DistArray<U> &>(*D),
                                     Args...);
        },
        K.Args);
  }
  bool eager() const override { return !(IsChannelWriter<A>::value || ...); }

private:
  RangeT R;
  DistArray<U> *D;
  ConsumerKernel<KernelT, A...> K;
};
/// Refuses, at executeWith as the reference does (with its texts:
/// hpp/core/range_check.h), a consumer range that no launch can have.
template <int N, int L>
void checkConsumerShape(const Range<N, L> &R, const char *File, int Line) {
  checkLaunchRange(R, "parallelFor", File, Line);
}

/// Gives \p Var the value \p V for its lifetime, then the old one back.
template <class V> struct Scoped {
  V &Var;
  V Old;
  Scoped(V &To, V New) : Var(To), Old(To) { Var = New; }
  ~Scoped() { Var = Old; }
  Scoped(const Scoped &) = delete;
  Scoped &operator=(const Scoped &) = delete;
};

/// Consumer launches enqueued behind a producer before the host waits,
/// from HPP_CHANNEL_EAGER (read once; default 2, 0 turns them off).
inline unsigned readChannelEager() {
  const char *Env = std::getenv("HPP_CHANNEL_EAGER");
  if (!Env || !*Env)
    return 2;
  char *End = nullptr;
  const unsigned long V = std::strtoul(Env, &End, 10);
  if (*End || *Env < '0' || *Env > '9' || V > 1024)
    throw RuntimeError(std::string("HPP_CHANNEL_EAGER=") + Env, __FILE__,
                       __LINE__,
                       "must be a number of consumer launches from 0 to 1024");
  return unsigned(V);
}
inline unsigned channelEagerLaunches() {
  static const unsigned N = readChannelEager();
  return N;
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_CHANNEL_KERNEL_H
