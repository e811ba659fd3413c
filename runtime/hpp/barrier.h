//===- hpp/barrier.h - Barrier objects in rewritten code ------------------===//
//
// Part of hpp-rewrite. Device runtime, every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::Barrier as rewritten code uses it (spec 1.7): the host creates
/// `Barrier b(count)`; a parallelFor that captured it by reference gets it
/// as a kernel parameter (a copyable handle), and the kernel's prologue,
/// before any work-item can leave, binds it to the work-group's storage:
///
///   __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_b;
///   b.attach(hpp_barrier_b);
///
/// after which wait() / arrive() / skip() work in any control flow, in the
/// kernel and in device functions taking `Barrier &`. Participants: the
/// count's work-items of one work-group (a count up to the work-group
/// size; each work-group has its own state). A larger count, a barrier
/// across work-groups, is refused at launch for now (hpp::launchKernel).
///
/// Backends:
///  - CUDA: the hardware-backed split barrier, `cuda::barrier<
///    cuda::thread_scope_block>` in shared memory (arrive then try_wait,
///    `arrive`, `arrive_and_drop`);
///  - HIP: a counter word in shared memory (arrivals in the low half,
///    withdrawals in the high half) and a phase word. The lanes of a
///    wavefront that call together arrive together: one lane adds their
///    number, and only that lane polls the phase, sleeping between polls
///    (s_sleep), so a waiting wavefront does not starve the others. Lanes of
///    one wavefront that wait while others of it must still arrive cannot
///    both make progress on AMD (no independent thread scheduling):
///    hpp-rewrite reports such code (`[hpp-barrier-divergence]`);
///  - CUDA and HIP: a wait still blocked after a few polls enters the
///    work-group's watch, which tells exactly when the work-group can never
///    pass its barriers (a work-item left the kernel without skip() while
///    the others wait; the kernel declares a detail::BarrierExitGuard after
///    the binding); it then reports the reference runtime's deadlock error
///    and ends instead of hanging the GPU (hpp/block_barrier.h);
///  - CPU: the reference runtime's phase counters (hpp/cpu/barrier_ops.h)
///    in the work-group's fibers.
///
/// wait(), arrive() and skip() take their caller's file:line (defaulted
/// `__builtin_FILE()`/`__builtin_LINE()`) for the errors, on every backend.
///
/// Participants across work-groups (a count larger than the work-group):
/// the barrier is launch-wide; hpp::launchKernel gives it zeroed state in
/// device memory and launches cooperatively (hpp/grid_barrier.h: the warps
/// of a work-group combine their arrivals in its shared storage, one device
/// atomic for those that arrive together, and one waiter per work-group
/// polls the device; detail::LaunchSplitKind).
///
/// Why no hardware barrier serves a barrier that may arrive or skip: PTX's
/// `barrier.cta.arrive` / `barrier.cta.sync` (non-aligned, sm_70 and later)
/// make the executing thread wait for all non-exited threads of its warp
/// and mark the warp's arrival, with a count in whole warps (PTX ISA,
/// "Parallel Synchronization and Communication Instructions: bar,
/// barrier"). So an arrive() would wait for the lanes of its warp, which
/// may be waiting for what it does next (a non-blocking arrive is the point
/// of arrive()); a skip() cannot withdraw from the phases after this one;
/// and a hardware wait cannot be polled, so it could never tell a
/// deadlock. Only a barrier nobody arrives on, skips or leaves fits it: the
/// fast path below. The split barrier is the mbarrier (CUDA), whose arrive
/// counts single threads, never blocks, and whose wait can poll.
///
/// Fast path (hpp/wait_only_barrier.h): hardware barriers cost what
/// `__syncthreads` costs, about a third of an mbarrier's arrive and poll
/// (docs/benchmarks.md), but they count whole warps and cannot drop a
/// participant, so they can only serve a barrier that nobody arrives on or
/// skips, nor leaves: they cannot see a deadlock. hpp-rewrite proves that for a
/// kernel's barrier when the body only calls `b.wait()` on it (directly: a
/// Barrier passed to a function may be skipped there) and has no `return` but a
/// last statement, and then outlines the kernel in three instantiations that
/// bind the barrier as a detail::WaitOnlyBarrier<Scope>, and launches it
/// through detail::WaitOnlyVariants:
///
///   template <int HppBarrierScope> __global__ void k(..., hpp::Barrier
///       hpp_handle_b) {
///     __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_b;
///     hpp::detail::WaitOnlyBarrier<HppBarrierScope> b(hpp_handle_b,
///                                                     hpp_barrier_b);
///   ...
///   hpp::launchKernel(hpp::detail::waitOnlyVariants(k<0>, k<1>, k<2>, b),
///                     range, ..., b);
///
/// The launch picks GroupScope when the barrier's participants are every
/// work-item of each work-group (and, on CUDA, whole warps): wait() is then
/// the named hardware barrier 1 (`barrier.sync 1`, non-aligned, so legal in
/// divergent code since sm_70; barrier 0 is __syncthreads') on CUDA and
/// `__syncthreads()` on HIP. The barrier number must be an immediate: from
/// a register the same barrier costs 1.6x. It picks LaunchScope when they
/// are every work-item of the launch: the grid barrier of hpp/grid_wait.h
/// (detail::LaunchWaitKind; cg::this_grid().sync() before) in a
/// cooperative launch. Otherwise SplitScope, the Barrier itself; also for
/// a partial last work-group, whose trailing work-items never arrive.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BARRIER_H
#define HPP_RUNTIME_BARRIER_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/block_barrier.h"
#include "hpp/core/error.h"
#include "hpp/grid_barrier.h"

#include <atomic>
#include <cstdint>
#include <string>

#if defined(HPP_BACKEND_CPU)
#include "hpp/cpu/barrier_ops.h"
#include <memory>
#endif

namespace hpp {

// The operations take their caller's file:line, for the errors (deadlock,
// rejoining after skip) the reference runtime reports.
#define HPP_BARRIER_LOC                                                        \
  const char *CallFile = __builtin_FILE(), int CallLine = __builtin_LINE()
#define HPP_BARRIER_LOC_ARGS CallFile, CallLine

class Barrier;
namespace detail {
inline void prepareLaunchArgument(Barrier &, unsigned, std::size_t,
                                  LaunchOptions &, LaunchScratch &);
template <int Scope, int Kind> class WaitOnlyBarrier;

/// Where Barrier::wait() puts the launch-wide path beside the work-group's
/// (the scope is known only at run time; bench/barrier_bench.cu times each
/// layout at work-group scope):
///  - WaitScopeInline: both inline, a plain branch on the scope;
///  - WaitScopeExpect: both inline, the launch-wide branch marked unlikely
///    (`__builtin_expect`), so that the work-group path falls through;
///  - WaitScopeCall: the launch-wide path out of line (gridWaitCall), the
///    call marked unlikely: never taken at work-group scope.
enum WaitScopeLayout { WaitScopeInline, WaitScopeExpect, WaitScopeCall };
/// The runtime's choice (HPP_BARRIER_WAIT_LAYOUT overrides it, for
/// bench/grid_sync_bench.cu's measurement of the other layouts).
#ifndef HPP_BARRIER_WAIT_LAYOUT
#define HPP_BARRIER_WAIT_LAYOUT WaitScopeCall
#endif
constexpr WaitScopeLayout BarrierWaitLayout = HPP_BARRIER_WAIT_LAYOUT;

#if !defined(HPP_BACKEND_CPU)
/// Barrier::wait()'s launch-wide path of kind \p K, out of line
/// (WaitScopeCall).
template <int K>
__noinline__ HPP_DEVICE void gridWaitCall(GridBarrierState *S,
                                          GridBlockState *L, unsigned Count) {
  gridArrive<GridSplitKind(K)>(S, L, Count, 1, /*Wait=*/true);
}
#endif
} // namespace detail

/// A barrier whose participants may arrive, wait or withdraw in divergent
/// control flow.
class Barrier {
public:
  /// A barrier of \p Count participants per phase (host code); a bad
  /// count throws RuntimeError at the caller's line.
  explicit Barrier(unsigned Count, HPP_CALLER_LOCATION)
      : Count(Count), Serial(nextSerial()), CreatedFile(File),
        CreatedLine(Line) {
    if (Count == 0 || Count > 0x7fffffffu)
      throw RuntimeError("hpp::Barrier", File, Line,
                         "a barrier has from 1 to 2^31-1 participants, not " +
                             std::to_string(Count));
  }

  /// Participants per phase.
  HPP_HD unsigned getCount() const { return Count; }

  /// Binds the handle to the work-group's storage: every work-item of the
  /// group calls it, in the kernel's prologue.
  HPP_DEVICE void attach(detail::BlockBarrierStorage &S) {
#if defined(HPP_BACKEND_CUDA)
    // A launch-wide barrier (Grid) does not use the block's: its count may
    // exceed what an mbarrier holds (2^20 - 1).
    if (threadIdx.x + threadIdx.y + threadIdx.z == 0) {
      if (!Grid) {
        init(S.get(), Count);
        S.Withdrawn = 0;
      }
      S.Grid = detail::GridBlockState{};
      detail::initGroupWatch();
    }
    __syncthreads();
#elif defined(HPP_BACKEND_HIP)
    if (threadIdx.x + threadIdx.y + threadIdx.z == 0) {
      S.Counts = 0;
      S.Phase = 0;
      S.Grid = detail::GridBlockState{};
      detail::initGroupWatch();
    }
    __syncthreads();
#endif
    Storage = &S;
  }

  /// Arrives, then waits until every participant that has not withdrawn
  /// has arrived in this phase.
  HPP_DEVICE void wait(HPP_BARRIER_LOC) {
    waitAs<detail::LaunchSplitKind>(HPP_BARRIER_LOC_ARGS);
  }

  /// wait(), with the launch-wide split barrier of kind \p K
  /// (detail::GridSplitKind, hpp/grid_barrier.h; wait() uses
  /// detail::LaunchSplitKind) placed as \p Layout says
  /// (detail::WaitScopeLayout; wait() uses detail::BarrierWaitLayout) and
  /// the work-group's of kind \p BlockK (detail::BlockWaitKind,
  /// hpp/block_barrier.h; wait() uses detail::BlockSplitKind): for
  /// bench/barrier_bench.cu, which times the work-group barrier with each
  /// kind's code beside it.
  template <int K, int BlockK = detail::BlockSplitKind,
            int Layout = detail::BarrierWaitLayout>
#if !defined(HPP_BACKEND_CPU)
  __forceinline__
#endif
      HPP_DEVICE void
      waitAs(HPP_BARRIER_LOC) {
#if !defined(HPP_BACKEND_CPU)
    if constexpr (Layout == detail::WaitScopeCall) {
      if (__builtin_expect(Grid != nullptr, 0))
        return detail::gridWaitCall<K>(Grid, &Storage->Grid, Count);
    } else if (Layout == detail::WaitScopeExpect
                   ? __builtin_expect(Grid != nullptr, 0)
                   : Grid != nullptr) {
      return detail::gridArrive<detail::GridSplitKind(K)>(
          Grid, &Storage->Grid, Count, 1, /*Wait=*/true);
    }
#endif
#if defined(HPP_BACKEND_CUDA)
    detail::blockWait<BlockK>(Storage, identity(Arrivals++), CallFile,
                              CallLine);
#elif defined(HPP_BACKEND_HIP)
    detail::blockArrive(Storage, identity(0), 1, /*Wait=*/true, CallFile,
                        CallLine);
#else
    cpuOp(0, "Barrier::wait", CallFile, CallLine);
#endif
  }

#if !defined(HPP_BACKEND_CPU)
  /// wait() of a launch-wide barrier, with the split barrier of kind \p K
  /// (detail::GridSplitKind; wait() uses detail::LaunchSplitKind): for
  /// bench/grid_sync_bench.cu, which times the kinds.
  template <int K> HPP_DEVICE void gridWaitAs() {
    detail::gridArrive<detail::GridSplitKind(K)>(Grid, &Storage->Grid, Count, 1,
                                                 /*Wait=*/true);
  }
#endif

  /// Counts the caller for this phase without waiting.
  HPP_DEVICE void arrive(HPP_BARRIER_LOC) {
#if !defined(HPP_BACKEND_CPU)
    if (Grid)
      return detail::gridArrive(Grid, &Storage->Grid, Count, 1,
                                /*Wait=*/false);
#endif
#if defined(HPP_BACKEND_CUDA)
    ++Arrivals;
    (void)Storage->get()->arrive();
#elif defined(HPP_BACKEND_HIP)
    detail::blockArrive(Storage, identity(0), 1, /*Wait=*/false, CallFile,
                        CallLine);
#else
    cpuOp(1, "Barrier::arrive", CallFile, CallLine);
#endif
  }

  /// Withdraws the caller from this and every later phase.
  HPP_DEVICE void skip(HPP_BARRIER_LOC) {
#if !defined(HPP_BACKEND_CPU)
    if (Grid)
      return detail::gridArrive(Grid, &Storage->Grid, Count, 1ull << 32,
                                /*Wait=*/false);
#endif
#if defined(HPP_BACKEND_CUDA)
    ++Arrivals;
    detail::blockSkip(Storage);
#elif defined(HPP_BACKEND_HIP)
    detail::blockArrive(Storage, identity(0), 1u << 16, /*Wait=*/false,
                        CallFile, CallLine);
#else
    cpuOp(2, "Barrier::skip", CallFile, CallLine);
#endif
  }

private:
  static unsigned nextSerial() {
    static std::atomic<unsigned> Next{1};
    return Next.fetch_add(1, std::memory_order_relaxed);
  }

#if !defined(HPP_BACKEND_CPU)
  /// What a deadlock report at a wait says (hpp/block_barrier.h); on CUDA
  /// \p Before is the caller's calls on the barrier before this one, its
  /// phase if it took part in every one.
  HPP_DEVICE detail::BarrierIdentity identity(unsigned Before) const {
    return {Count, CreatedFile, CreatedLine, Errors, 0, Before, 0, 0, 0};
  }
#endif

#if defined(HPP_BACKEND_CPU)
  void cpuOp(int Op, const char *Name, const char *CallFile, int CallLine) {
    cpu::GroupExecutor &E = cpu::deviceExecutor(Name, CallFile, CallLine);
    if (Count > E.groupSize()) { // Across work-groups: the launch's.
      if (!E.launch())
        throw RuntimeError(Name, CallFile, CallLine,
                           "a barrier across work-groups needs a "
                           "cooperative launch");
      cpu::barrierOp(E.launch()->sharedCounter(Serial, Count), true, Op, Name,
                     CallFile, CallLine);
      return;
    }
    // Odd keys never collide with the addresses other group state uses.
    const void *Key = reinterpret_cast<const void *>(
        static_cast<std::uintptr_t>(Serial) * 2 + 1);
    auto &G = E.groupState<cpu::GroupPhaseCounter>(Key, [&] {
      return std::unique_ptr<cpu::GroupState>(
          new cpu::GroupPhaseCounter(Count, CreatedFile, CreatedLine));
    });
    cpu::barrierOp(G.Counter, false, Op, Name, CallFile, CallLine);
  }
#endif
  friend void detail::prepareLaunchArgument(Barrier &, unsigned, std::size_t,
                                            detail::LaunchOptions &,
                                            detail::LaunchScratch &);
  template <int Scope, int Kind> friend class detail::WaitOnlyBarrier;

  unsigned Count;
  unsigned Serial;
  const char *CreatedFile; ///< where the host created it (a host address)
  int CreatedLine;
  detail::BlockBarrierStorage *Storage = nullptr;
  detail::GridBarrierState *Grid = nullptr;  ///< launch-wide state, if any
  detail::DeviceErrorSlot *Errors = nullptr; ///< the launch's (GPU)
  unsigned Arrivals = 0; ///< the work-item's calls so far (CUDA)
};

namespace detail {

/// Launch-time preparation of a kernel argument (hpp::launchKernel): a
/// Barrier gets the launch's error record (GPU: where a deadlock is
/// reported, hpp/device_error.h). One whose count exceeds the work-group
/// is launch-wide: it gets
/// zeroed state in device memory (\p Scratch frees it after the launch)
/// and the launch becomes cooperative. A count larger than the launch's
/// \p InRange work-items could never complete: refused.
inline void prepareLaunchArgument(Barrier &B, unsigned GroupSize,
                                  std::size_t InRange, LaunchOptions &Options,
                                  LaunchScratch &Scratch) {
  B.Errors = Scratch.errorSlot();
  if (B.getCount() <= GroupSize)
    return;
  if (B.getCount() > InRange)
    throw RuntimeError("hpp::launchKernel", __FILE__, __LINE__,
                       "a barrier of " + std::to_string(B.getCount()) +
                           " participants in a launch of " +
                           std::to_string(InRange) +
                           " work-items could never complete a phase");
  Options.Cooperative = true;
#if !defined(HPP_BACKEND_CPU)
  B.Grid =
      static_cast<GridBarrierState *>(Scratch.zeroed(sizeof(GridBarrierState)));
#else
  (void)Scratch;
#endif
}
template <class T>
void prepareLaunchArgument(T &, unsigned, std::size_t, LaunchOptions &,
                           LaunchScratch &) {}

} // namespace detail
} // namespace hpp

// HPP_BARRIER_LOC and HPP_BARRIER_LOC_ARGS stay defined for
// hpp/wait_only_barrier.h, which undefines them.

#endif // HPP_RUNTIME_BARRIER_H
