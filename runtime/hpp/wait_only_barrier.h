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
/// the "Fast path" part of hpp/barrier.h's comment.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_WAIT_ONLY_BARRIER_H
#define HPP_RUNTIME_WAIT_ONLY_BARRIER_H

#include "hpp/barrier.h"

#include <cstddef>

namespace hpp {
namespace detail {

/// Where a barrier the kernel only waits on lives (see the file comment).
enum BarrierScope {
  SplitScope = 0, ///< the Barrier itself (arrive/skip-capable)
  GroupScope = 1, ///< the whole work-group: a hardware barrier
  LaunchScope = 2 ///< every work-item of the launch: the grid barrier
};

/// The barrier a kernel only waits on, bound for \p Scope.
template <int Scope> class WaitOnlyBarrier {
public:
  HPP_DEVICE WaitOnlyBarrier(Barrier Handle, BlockBarrierStorage &S)
      : B(Handle) {
    if (Scope == SplitScope)
      B.attach(S);
  }

  HPP_HD unsigned getCount() const { return B.getCount(); }

  HPP_DEVICE void wait(HPP_BARRIER_LOC) {
#if defined(HPP_BACKEND_CUDA) || defined(HPP_BACKEND_HIP)
    if constexpr (Scope == LaunchScope) {
      cooperative_groups::this_grid().sync();
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
