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
///    cuda::thread_scope_block>` in shared memory (`arrive_and_wait`,
///    `arrive`, `arrive_and_drop`);
///  - HIP: a counter word in shared memory (arrivals in the low half,
///    withdrawals in the high half) and a phase word. The lanes of a
///    wavefront that call together arrive together: one lane adds their
///    number, and only that lane polls the phase, sleeping between polls
///    (s_sleep), so a waiting wavefront does not starve the others. Lanes of
///    one wavefront that wait while others of it must still arrive cannot
///    both make progress on AMD (no independent thread scheduling):
///    hpp-rewrite reports such code (`[hpp-barrier-divergence]`);
///  - CPU: the reference runtime's phase counters (hpp/cpu/barrier_ops.h)
///    in the work-group's fibers.
///
/// Participants across work-groups (a count larger than the work-group):
/// the barrier is launch-wide; hpp::launchKernel gives it zeroed state in
/// device memory and launches cooperatively (hpp/grid_barrier.h).
///
/// Fast path (hpp/wait_only_barrier.h): hardware barriers cost what `__syncthreads` costs, about a
/// third of an mbarrier's arrive and poll (docs/benchmarks.md), but they
/// count whole warps and cannot drop a participant, so they can only serve
/// a barrier that nobody arrives on or skips. hpp-rewrite proves that for a
/// kernel's barrier when the parallelFor body only calls `b.wait()` on it
/// (directly: a Barrier passed to a function may be skipped there), and
/// then outlines the kernel in three instantiations that bind the barrier
/// as a detail::WaitOnlyBarrier<Scope>, and launches it through
/// detail::WaitOnlyVariants:
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
/// are every work-item of the launch: `cg::this_grid().sync()` in a
/// cooperative launch. Otherwise SplitScope, the Barrier itself.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BARRIER_H
#define HPP_RUNTIME_BARRIER_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/error.h"
#include "hpp/grid_barrier.h"

#include <atomic>
#include <cstdint>
#include <string>

#if defined(HPP_BACKEND_CUDA)
#include <cuda/barrier>
#elif defined(HPP_BACKEND_CPU)
#include "hpp/cpu/barrier_ops.h"
#include <memory>
#endif

namespace hpp {
namespace detail {

/// A work-group's barrier state, declared `__shared__` by the kernel.
#if defined(HPP_BACKEND_CUDA)
using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;
/// Raw storage, so that the `__shared__` declaration needs no dynamic
/// initialization; attach() constructs the barrier in it (cuda::init).
struct BlockBarrierStorage {
  alignas(BlockBarrier) unsigned char Bytes[sizeof(BlockBarrier)];
  HPP_DEVICE BlockBarrier *get() {
    return reinterpret_cast<BlockBarrier *>(Bytes);
  }
};
#else
struct BlockBarrierStorage {
  unsigned Counts; ///< arrivals (low 16 bits), withdrawals (high 16 bits)
  unsigned Phase;
};
#endif

} // namespace detail

#if defined(HPP_BACKEND_CPU)
// On the CPU the operations take their caller's file:line, for the errors
// (deadlock, rejoining after skip) the reference runtime reports.
#define HPP_BARRIER_LOC                                                        \
  const char *CallFile = __builtin_FILE(), int CallLine = __builtin_LINE()
#define HPP_BARRIER_LOC_ARGS CallFile, CallLine
#else
#define HPP_BARRIER_LOC
#define HPP_BARRIER_LOC_ARGS
#endif

class Barrier;
namespace detail {
inline void prepareLaunchArgument(Barrier &, unsigned, std::size_t,
                                  LaunchOptions &, LaunchScratch &);
} // namespace detail

/// A barrier whose participants may arrive, wait or withdraw in divergent
/// control flow.
class Barrier {
public:
  /// A barrier of \p Count participants per phase (host code); a bad
  /// count throws RuntimeError at the caller's line.
  explicit Barrier(unsigned Count, HPP_CALLER_LOCATION)
      : Count(Count), Serial(nextSerial()) {
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
    if (!Grid && threadIdx.x + threadIdx.y + threadIdx.z == 0)
      init(S.get(), Count);
    __syncthreads();
#elif defined(HPP_BACKEND_HIP)
    if (threadIdx.x + threadIdx.y + threadIdx.z == 0) {
      S.Counts = 0;
      S.Phase = 0;
    }
    __syncthreads();
#endif
    Storage = &S;
  }

  /// Arrives, then waits until every participant that has not withdrawn
  /// has arrived in this phase.
  HPP_DEVICE void wait(HPP_BARRIER_LOC) {
#if !defined(HPP_BACKEND_CPU)
    if (Grid)
      return detail::gridArrive(Grid, Count, 1, /*Wait=*/true);
#endif
#if defined(HPP_BACKEND_CUDA)
    Storage->get()->arrive_and_wait();
#elif defined(HPP_BACKEND_HIP)
    hipArrive(1, /*Wait=*/true);
#else
    cpuOp(0, "Barrier::wait", CallFile, CallLine);
#endif
  }

  /// Counts the caller for this phase without waiting.
  HPP_DEVICE void arrive(HPP_BARRIER_LOC) {
#if !defined(HPP_BACKEND_CPU)
    if (Grid)
      return detail::gridArrive(Grid, Count, 1, /*Wait=*/false);
#endif
#if defined(HPP_BACKEND_CUDA)
    (void)Storage->get()->arrive();
#elif defined(HPP_BACKEND_HIP)
    hipArrive(1, /*Wait=*/false);
#else
    cpuOp(1, "Barrier::arrive", CallFile, CallLine);
#endif
  }

  /// Withdraws the caller from this and every later phase.
  HPP_DEVICE void skip(HPP_BARRIER_LOC) {
#if !defined(HPP_BACKEND_CPU)
    if (Grid)
      return detail::gridArrive(Grid, Count, 1ull << 32, /*Wait=*/false);
#endif
#if defined(HPP_BACKEND_CUDA)
    Storage->get()->arrive_and_drop();
#elif defined(HPP_BACKEND_HIP)
    hipArrive(1u << 16, /*Wait=*/false);
#else
    cpuOp(2, "Barrier::skip", CallFile, CallLine);
#endif
  }

private:
  static unsigned nextSerial() {
    static std::atomic<unsigned> Next{1};
    return Next.fetch_add(1, std::memory_order_relaxed);
  }

#if defined(HPP_BACKEND_HIP)
  /// Adds \p Unit (an arrival or a withdrawal) for every lane of the
  /// wavefront calling now; with \p Wait, the wavefront then waits for the
  /// phase to end. The lane that completes the phase resets the arrivals
  /// and starts the next one.
  HPP_DEVICE void hipArrive(unsigned Unit, bool Wait) {
    const LaneMask Lanes = activeMask();
    const bool Leader = ffsMask(Lanes) - 1 == detail::laneId();
    const unsigned Phase = __hip_atomic_load(&Storage->Phase, __ATOMIC_ACQUIRE,
                                             __HIP_MEMORY_SCOPE_WORKGROUP);
    if (Leader) {
      const unsigned N = unsigned(popcMask(Lanes));
      const unsigned Old = atomicAdd(&Storage->Counts, N * Unit);
      const unsigned New = Old + N * Unit;
      const unsigned Expected = Count - (New >> 16);
      if (Expected != 0 && (New & 0xffffu) == Expected) {
        atomicAnd(&Storage->Counts, 0xffff0000u);
        __hip_atomic_fetch_add(&Storage->Phase, 1u, __ATOMIC_RELEASE,
                               __HIP_MEMORY_SCOPE_WORKGROUP);
      } else if (Wait) {
        while (__hip_atomic_load(&Storage->Phase, __ATOMIC_ACQUIRE,
                                 __HIP_MEMORY_SCOPE_WORKGROUP) == Phase)
          __builtin_amdgcn_s_sleep(1);
      }
    }
    // The other lanes go on when the leader does (one instruction stream).
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
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
          new cpu::GroupPhaseCounter(Count, nullptr, 0));
    });
    cpu::barrierOp(G.Counter, false, Op, Name, CallFile, CallLine);
  }
#endif
  friend void detail::prepareLaunchArgument(Barrier &, unsigned, std::size_t,
                                            detail::LaunchOptions &,
                                            detail::LaunchScratch &);

  unsigned Count;
  unsigned Serial;
  detail::BlockBarrierStorage *Storage = nullptr;
  detail::GridBarrierState *Grid = nullptr; ///< launch-wide state, if any
};

namespace detail {

/// Launch-time preparation of a kernel argument (hpp::launchKernel): a
/// Barrier whose count exceeds the work-group is launch-wide: it gets
/// zeroed state in device memory (\p Scratch frees it after the launch)
/// and the launch becomes cooperative. A count larger than the launch's
/// \p InRange work-items could never complete: refused.
inline void prepareLaunchArgument(Barrier &B, unsigned GroupSize,
                                  std::size_t InRange, LaunchOptions &Options,
                                  LaunchScratch &Scratch) {
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
