//===- hpp/wait_only_barrier.h - Barriers a kernel only waits on ----------===//
//
// Part of hpp-rewrite. Device runtime, every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// WaitOnlyBarrier and WaitOnlyVariants: how rewritten code binds a Barrier
/// its kernel only waits on, in three instantiations picked at launch
/// (work-group hardware barrier, grid barrier, or the Barrier itself); see
/// the "Fast path" part of hpp/barrier.h's comment. The grid barrier
/// (LaunchScope) is hpp/grid_wait.h's, of kind LaunchWaitKind, on the
/// Barrier's per-launch state (GridSyncFlag: its own arrival and release
/// words; cg::this_grid().sync() before).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_WAIT_ONLY_BARRIER_H
#define HPP_RUNTIME_WAIT_ONLY_BARRIER_H

#include "hpp/barrier.h"
#if !defined(HPP_BACKEND_CPU)
#include "hpp/grid_wait.h"
#endif

#include <cstddef>

namespace hpp {
namespace detail {

/// Where a barrier the kernel only waits on lives (see the file comment).
enum BarrierScope {
  SplitScope = 0, ///< the Barrier itself (arrive/skip-capable)
  GroupScope = 1, ///< the whole work-group: a hardware barrier
  LaunchScope = 2 ///< every work-item of the launch: the grid barrier
};

#if defined(HPP_BACKEND_CPU)
constexpr int LaunchWaitKind = 0; // Unused: the CPU backend has one barrier.
#endif

/// The barrier a kernel only waits on, bound for \p Scope; \p Kind: how
/// LaunchScope meets (GridSyncKind, hpp/grid_wait.h; the runtime's choice
/// unless a benchmark picks another).
template <int Scope, int Kind = LaunchWaitKind> class WaitOnlyBarrier {
public:
  HPP_DEVICE WaitOnlyBarrier(Barrier Handle, BlockBarrierStorage &S)
      : B(Handle) {
    if (Scope == SplitScope)
      B.attach(S);
#if !defined(HPP_BACKEND_CPU)
    // The group's count of syncs, in shared memory (a copy of this object
    // must not count apart); only its first work-item uses it.
    if (Scope == LaunchScope && threadIdx.x + threadIdx.y + threadIdx.z == 0)
      S.Grid.Syncs = 0;
    Storage = &S;
#endif
  }

  HPP_HD unsigned getCount() const { return B.getCount(); }

  HPP_DEVICE void wait(HPP_BARRIER_LOC) {
#if defined(HPP_BACKEND_CUDA) || defined(HPP_BACKEND_HIP)
    if constexpr (Scope == LaunchScope) {
      gridSync<GridSyncKind(Kind)>(B.Grid, Storage->Grid.Syncs);
      return;
    }
#endif
#if defined(HPP_BACKEND_CUDA)
    if constexpr (Scope == GroupScope) {
      asm volatile("barrier.sync 1;" ::: "memory");
      return;
    }
#elif defined(HPP_BACKEND_HIP)
    if constexpr (Scope == GroupScope) {
      __syncthreads();
      return;
    }
#endif
    B.wait(HPP_BARRIER_LOC_ARGS);
  }

private:
  Barrier B;
#if !defined(HPP_BACKEND_CPU)
  BlockBarrierStorage *Storage; ///< the group's (LaunchScope: its Syncs)
#endif
};

/// A kernel outlined in the three instantiations for a wait-only barrier
/// \p B (index = BarrierScope); launchKernel picks one for the launch.
template <class KernelT> struct WaitOnlyVariants {
  KernelT Kernels[3];
  const Barrier *B;

  /// The scope for a launch of \p InRange work-items in work-groups of
  /// \p GroupSize, \p Launched work-items in all (InRange when 0). A
  /// hardware barrier cannot see a work-item that never arrives: it serves
  /// the work-group only when every work-item of every group runs the body
  /// (no partial last group: its trailing work-items never arrive, and the
  /// split barrier reports the deadlock).
  BarrierScope pick(unsigned GroupSize, std::size_t InRange,
                    std::size_t Launched = 0) const {
#if defined(HPP_BACKEND_CUDA)
    const bool WholeWarps = GroupSize % 32 == 0;
#else
    const bool WholeWarps = true;
#endif
    const bool WholeGroups = !Launched || Launched == InRange;
    if (B->getCount() == GroupSize && WholeWarps && WholeGroups)
      return GroupScope;
    if (B->getCount() > GroupSize && B->getCount() == InRange)
      return LaunchScope;
    return SplitScope;
  }
};

template <class KernelT>
WaitOnlyVariants<KernelT> waitOnlyVariants(KernelT Split, KernelT Group,
                                           KernelT Launch, const Barrier &B) {
  return {{Split, Group, Launch}, &B};
}

} // namespace detail
} // namespace hpp

#undef HPP_BARRIER_LOC
#undef HPP_BARRIER_LOC_ARGS

#endif // HPP_RUNTIME_WAIT_ONLY_BARRIER_H
