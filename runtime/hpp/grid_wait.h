//===- hpp/grid_wait.h - Launch-wide barriers every work-item waits at ----===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The barrier of every work-item of a cooperative launch: `__gpu_sync()`
/// (hpp/grid_sync.h) and a launch-wide hpp::Barrier the kernel only waits on
/// (WaitOnlyBarrier<LaunchScope>, hpp/wait_only_barrier.h). Each work-group
/// first meets at its hardware barrier (`__syncthreads`), then one work-item
/// of the group arrives on a device word and polls until every work-group
/// has arrived, then the group meets again. GridSyncKind is how; the
/// runtime's choices are GpuSyncKind and LaunchWaitKind below:
///  - GridSyncCg: `cooperative_groups::this_grid().sync()` (the anchor;
///    CUDA 13's is the protocol of GridSyncFlip on the driver's grid
///    workspace word, after a null check of the workspace);
///  - GridSyncFlip: cg's protocol, written out: the first work-group adds
///    2^31 - (groups - 1), the others 1, with `atom.release.gpu`, so that
///    bit 31 of the word flips when the last one arrives and the word needs
///    no reset; each polls with `ld.acquire.gpu` until it sees the flip;
///  - GridSyncFlipRed: the same, but the arrival is a `red.release.gpu`
///    (no value back) after a relaxed read of the word: the bit cannot flip
///    before this group's own addition, so the read gives the bit to wait
///    for a change of;
///  - GridSyncFlipSleep: GridSyncFlip polling with a 32 ns __nanosleep;
///  - GridSyncFlipRelaxed: GridSyncFlip polling with `ld.relaxed.gpu` (each
///    acquire load may cost a poll more than a relaxed one), then one
///    `fence.acq_rel.gpu`: the relaxed read that saw the flip and the fence
///    after it are an acquire pattern (PTX ISA, "Memory Consistency Model",
///    release and acquire patterns);
///  - GridSyncFlag: the arrivals on one word (64-bit, counting all syncs,
///    `atom.acq_rel.gpu`), the release on another line: the work-group whose
///    arrival is the sync's last (it knows from the value back and the
///    syncs it has made) stores the sync's number with `st.release.gpu`;
///    the others poll that word with `ld.acquire.gpu`, so polls do not
///    contend with the arrivals. Needs per-launch zeroed state: the
///    launch-wide Barrier's (GridBarrierState), not __gpu_sync;
///  - GridSyncFlagRelaxed: GridSyncFlag polling as GridSyncFlipRelaxed;
///  - GridSyncFlipLast: GridSyncFlip whose arrival is an `atom.acq_rel.gpu`
///    and whose last arriver does not poll: the additions of a sync sum to
///    2^31 from a word whose low 31 bits are 0 (cg's protocol relies on the
///    same), so bit 31 flips with the last addition and with no other; the
///    work-group whose own addition flipped it (the value back, plus its
///    addition) knows every group has arrived. Before, it polled once more
///    after its atomic came back: it left a round trip of the hot word
///    later than needed, and the last arriver tends to be the next sync's
///    too (the others notice the flip up to a poll's round trip after it,
///    so the gain is at most that round trip). Its acquire: the acq_rel
///    atomic reads the value the chain of earlier arrivals wrote; each is
///    a release, and an RMW chain between a release and an acquire is
///    observation order (PTX ISA, "Memory Consistency Model", observation
///    order and synchronizes);
///  - GridSyncFlipFence: GridSyncFlipLast with one-sided fences (sm_90,
///    PTX ISA 8.6; else fence.acq_rel, as GridSyncFlipRelaxed): the
///    arrival is `fence.release.gpu` then `atom.relaxed.gpu` (a release
///    pattern), the poll `ld.relaxed.gpu` (no L1 invalidation per poll),
///    and the read that saw the flip (the poll's, or the last arriver's
///    atomic) is followed by one `fence.acquire.gpu` (an acquire pattern,
///    as atomic_thread_fence(acquire) maps on sm_90): GridSyncFlipRelaxed's
///    polls, without its full fence, if the one-sided fences cost less
///    than fence.acq_rel (nothing here can tell: measure).
/// Memory order as grid.sync: a work-item's writes before the barrier, the
/// group's bar.sync (orders them before the arriving work-item's later
/// accesses, PTX ISA "bar, barrier": memory accesses before the barrier are
/// performed relative to all threads participating), the release of the
/// arrival (cumulative), the acquire of the poll that sees the last
/// arrival (GridSyncFlag: the chain of acq_rel additions, then the
/// release store; the last arriver of FlipLast and FlipFence: its own
/// atomic's), the group's second bar.sync, the reads after.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_GRID_WAIT_H
#define HPP_RUNTIME_GRID_WAIT_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/grid_barrier.h"

namespace hpp {
namespace detail {

/// How a launch-wide barrier of every work-item meets (file comment).
enum GridSyncKind {
  GridSyncCg,
  GridSyncFlip,
  GridSyncFlipRed,
  GridSyncFlipSleep,
  GridSyncFlag,
  GridSyncFlipRelaxed,
  GridSyncFlagRelaxed,
  GridSyncFlipLast,
  GridSyncFlipFence
};

#if defined(HPP_BACKEND_CUDA) && defined(__CUDACC_VER_MAJOR__) &&              \
    __CUDACC_VER_MAJOR__ >= 12
/// cg's grid workspace (the driver's, for a cooperative launch) is read as
/// CUDA 12 and 13 read it (cooperative_groups/details/driver_abi.h).
#define HPP_GRID_CG_WORD 1
#endif

/// The runtime's choices: what `__gpu_sync()` runs (any kind but the Flag
/// ones, which need per-launch state), and what a launch-wide
/// Barrier the kernel only waits on runs. bench/grid_sync_bench.cu times
/// them all. HIP keeps its cooperative groups' grid sync (unmeasured).
/// Measured on an H200 (docs/benchmarks.md, "Split barriers"), ratio to
/// grid.sync: on cg's word Flip 0.913, FlipLast 0.898, FlipFence 0.920;
/// on the barrier's own word Flip 0.879, FlipLast 0.891, FlipFence 0.871;
/// Flag 1.43 (its release store is one more round trip).
#if defined(HPP_GRID_CG_WORD)
constexpr GridSyncKind GpuSyncKind = GridSyncFlipLast;
constexpr GridSyncKind LaunchWaitKind = GridSyncFlipFence;
#else
constexpr GridSyncKind GpuSyncKind = GridSyncCg;
constexpr GridSyncKind LaunchWaitKind = GridSyncCg;
#endif

#if !defined(HPP_BACKEND_CPU)
/// The word cg's grid.sync uses (flip protocol): the driver's grid
/// workspace of the cooperative launch.
__device__ __forceinline__ unsigned *cgGridWord() {
#if defined(HPP_GRID_CG_WORD)
  return &cooperative_groups::details::get_grid_workspace()->barrier;
#else
  return nullptr;
#endif
}

/// Whether the caller is its work-group's first work-item.
__device__ __forceinline__ bool gridGroupMaster() {
  return threadIdx.x + threadIdx.y + threadIdx.z == 0;
}

/// The work-groups of the launch.
__device__ __forceinline__ unsigned gridGroups() {
  return gridDim.x * gridDim.y * gridDim.z;
}

/// The arrival and poll of GridSyncFlipLast and GridSyncFlipFence
/// (\p Fence) on \p Word, adding \p Add (file comment).
template <bool Fence>
__device__ __forceinline__ void gridFlipLast(unsigned *Word, unsigned Add) {
  unsigned Before;
  if constexpr (Fence) {
    scoped::fenceReleaseOnlyGpu(); // With the atomic: a release pattern.
    Before = scoped::addRelaxedGpuOld(Word, Add);
  } else {
    Before = scoped::addAcqRelGpuOld(Word, Add);
  }
  if (((Before + Add) ^ Before) & 0x80000000u) {
    // The last arrival: the atomic's read saw every other one.
  } else if constexpr (Fence) {
    while (((scoped::ldRelaxedGpu(Word) ^ Before) & 0x80000000u) == 0)
      gridPause(0);
  } else {
    while (((scoped::ldAcquire<true>(Word) ^ Before) & 0x80000000u) == 0)
      gridPause(0);
  }
  if constexpr (Fence)
    scoped::fenceAcquireOnlyGpu(); // After the read that saw the flip.
}

/// A flip-protocol sync (GridSyncFlip, FlipRed, FlipSleep, FlipRelaxed,
/// FlipLast, FlipFence) on \p Word.
template <GridSyncKind K>
__device__ __forceinline__ void gridFlipSync(unsigned *Word) {
  __syncthreads();
  if (gridGroupMaster()) {
    const bool First = blockIdx.x + blockIdx.y + blockIdx.z == 0;
    const unsigned Add = First ? 0x80000000u - (gridGroups() - 1) : 1u;
    if constexpr (K == GridSyncFlipLast || K == GridSyncFlipFence) {
      gridFlipLast<K == GridSyncFlipFence>(Word, Add);
    } else {
      unsigned Before;
      if constexpr (K == GridSyncFlipRed) {
        Before = scoped::ldRelaxedGpu(Word);
        scoped::addReleaseGpu(Word, Add);
      } else {
        Before = scoped::addReleaseGpuOld(Word, Add);
      }
      if constexpr (K == GridSyncFlipRelaxed) {
        while (((scoped::ldRelaxedGpu(Word) ^ Before) & 0x80000000u) == 0)
          gridPause(0);
        scoped::fenceAcquireGpu();
      } else {
        while (((scoped::ldAcquire<true>(Word) ^ Before) & 0x80000000u) == 0)
          gridPause(K == GridSyncFlipSleep ? 32 : 0);
      }
    }
  }
  __syncthreads();
}

/// A GridSyncFlag sync on \p S (\p Relaxed: GridSyncFlagRelaxed);
/// \p Syncs: the syncs the caller's group has made, which only the group's
/// first work-item reads and counts.
template <bool Relaxed>
__device__ __forceinline__ void gridFlagSync(GridBarrierState *S,
                                             unsigned long long &Syncs) {
  __syncthreads();
  if (gridGroupMaster()) {
    const unsigned long long Groups = gridGroups();
    const unsigned long long Old = scoped::addAcqRel<true>(&S->Arrivals, 1);
    const unsigned Seen = unsigned(Syncs);
    if (Old + 1 == (Syncs + 1) * Groups) {
      scoped::stReleaseGpu(&S->Released, Seen + 1);
    } else if (Relaxed) {
      while (scoped::ldRelaxedGpu(&S->Released) == Seen)
        gridPause(0);
      scoped::fenceAcquireGpu();
    } else {
      while (scoped::ldAcquire<true>(&S->Released) == Seen)
        gridPause(0);
    }
    ++Syncs;
  }
  __syncthreads();
}

/// A sync of every work-item of the launch, of kind \p K: on cg's word
/// (the Flip kinds, when \p S is null), on \p S (Flip kinds: its Released
/// word; GridSyncFlag, with \p Syncs), or cg's grid.sync.
template <GridSyncKind K>
__device__ __forceinline__ void gridSync(GridBarrierState *S,
                                         unsigned long long &Syncs) {
  if constexpr (K == GridSyncCg) {
    cooperative_groups::this_grid().sync();
  } else if constexpr (K == GridSyncFlag || K == GridSyncFlagRelaxed) {
    gridFlagSync<K == GridSyncFlagRelaxed>(S, Syncs);
  } else {
    gridFlipSync<K>(S ? &S->Released : cgGridWord());
  }
}
#endif

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_GRID_WAIT_H
