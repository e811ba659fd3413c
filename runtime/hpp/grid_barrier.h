//===- hpp/grid_barrier.h - Barriers across work-groups on GPUs -----------===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The state and the arrive/wait of an hpp::Barrier whose participants span
/// work-groups (hpp/barrier.h), in device memory: one 64-bit word counts
/// arrivals (low half) and withdrawals (high half), a second word is the
/// phase. hpp::launchKernel gives such a barrier zeroed state and launches
/// cooperatively, so every participant is resident. The lanes of a warp
/// that call together arrive together (one lane adds their number); the
/// lane whose addition completes the phase takes the phase's count off the
/// arrivals (arrivals past it count for the next phase, as in the reference
/// runtime) and advances the phase. One difference remains: when a phase
/// gets more arrivals than its count (a producer arrive()s again before the
/// phase ends), a wait whose arrival lands in the overflow, before the
/// completing lane has taken the count off, is released with this phase
/// rather than the next.
///
/// How the arrivals reach the word and how waiters learn of the phase is
/// GridSplitKind; LaunchSplitKind below is what hpp::Barrier uses:
///  - GridSplitFenced (the measured 6.4x grid.sync, docs/benchmarks.md): one
///    device-scope atomic per warp between two __threadfence, and each
///    warp's lane polls the phase with a growing __nanosleep;
///  - GridSplitAcqRel: the same protocol with the PTX memory model's
///    one-sided orderings instead of full fences (the arrival an
///    `atom.acq_rel.gpu`, the phase advanced by `red.release.gpu`, polled
///    with `ld.acquire.gpu`), and no sleeping;
///  - GridSplitCombined: GridSplitAcqRel, and the warps of a work-group
///    combine their arrivals in shared memory (GridBlockState): a warp adds
///    its arrivals to the group's Pending word (a withdrawal goes to the
///    device word alone: after a phase that it completes together with
///    arrivals, the arrivals past the count stay for the next phase, and it
///    would stay as one of them); the warp that found it empty
///    takes everything there (an exchange) and adds it to the device word,
///    so warps that arrive together cost one device atomic; no warp waits
///    for another to arrive. One waiting warp per work-group polls the
///    device's phase and copies it to the group's Mirror, which the group's
///    other waiters poll. Exactness: a warp's units are in Pending until the
///    warp that found it empty exchanges them out, which is after they were
///    added (the atomics on Pending are totally ordered), and that warp adds
///    them to the device word at once; every waiter reads the phase it waits
///    on before its units can reach the device word, as before. Ordering: a
///    waiter's writes, release (cta) on Pending, acquire by the exchanging
///    warp, its acq_rel device atomic, the completing warp's acq_rel atomic,
///    its release of the phase, the poller's acquire, its release of the
///    Mirror, the waiter's acquire: causality order is transitive across
///    scopes (PTX ISA, "Memory Consistency Model", base causality order);
///  - GridSplitCombinedDelay: GridSplitCombined whose exchanging warp first
///    sleeps 128 ns (CUDA), so that more of the group's warps join it;
///  - GridSplitGroup: one device atomic, one read of the phase and one
///    device poller per work-group when the group waits together (the
///    wait-only barrier's shape). arrive() and skip() go to the device word
///    alone (skip() also counts the group's withdrawn work-items, Gone). A
///    waiting warp adds its lanes to the group's Pending word, whose high
///    half numbers the group's flushes; the warp that found no units there
///    is the flush's flusher: it reads the device phase (in flight while it
///    waits), waits until the group's work-items that have not withdrawn
///    are all in Pending (or ~1 us: some wait in another phase or only
///    arrive), takes everything with an exchange that starts the next
///    flush, adds it to the device word, polls the phase if that did not
///    complete it, and publishes the flush as done (Done, a maximum). The
///    other waiters poll Done in shared memory until it passes their flush.
///    Exactness as GridSplitCombined: the flusher's phase read precedes the
///    units' device addition, and follows their addition to Pending, so it
///    is the phase they land in (a phase cannot complete without them, but
///    for the overflow above); flushes are numbered in exchange order and a
///    later flush's phase is never earlier. Ordering: a waiter's writes,
///    its `atom.release.cta` on Pending, the flusher's `atom.acquire.cta`
///    exchange (an RMW chain: observation order), its acq_rel device
///    atomic, the completing one, the phase's release, the flusher's
///    acquire poll (or its own acq_rel atomic when it completed), its
///    `red.release.cta.max` on Done, the waiter's `ld.acquire.cta`;
///    causality order is transitive across scopes. Exchange acquire (not
///    acq_rel): it need not wait for the phase read in flight. Limits: a
///    launch's operations use one kind (Pending's layout is the kind's;
///    skip() goes to the device word alone in every kind), 2^32 flushes
///    per work-group and launch (Done is an unsigned maximum), and a group
///    with work-items that never wait in the phase (they only arrive,
///    or left the range before the barrier) flushes after the ~1 us;
///  - GridSplitGroupFence: GridSplitGroup whose device accesses use the
///    one-sided fences of GridSyncFlipFence (hpp/grid_wait.h): release
///    fence then relaxed atomic (the arrival, the phase's advance: release
///    patterns), relaxed read then acquire fence (the completing atomic's,
///    the poll's: acquire patterns).
///
/// Waits here do not enter the work-group's deadlock watch (a launch-wide
/// barrier that can never complete hangs, as before).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_GRID_BARRIER_H
#define HPP_RUNTIME_GRID_BARRIER_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/grid_scoped.h"

namespace hpp {
namespace detail {

/// A launch-wide barrier's state, zeroed before each launch (one launch
/// scratch block: at most ScratchBlockBytes, 256, hpp/backend/gpu.h). The
/// words the atomics add to on one 128-byte line, the words polled on the
/// next, so that polls do not slow the atomics; a launch uses either the
/// split barrier's words or the wait-only barrier's (hpp/grid_wait.h).
struct GridBarrierState {
  unsigned long long Counts; ///< arrivals (low 32 bits), withdrawals (high)
  unsigned char Gap0[56];
  unsigned long long Arrivals; ///< wait-only: work-groups' arrivals, all syncs
  unsigned char Gap1[56];
  unsigned Phase;    ///< the split barrier's phase
  unsigned Released; ///< wait-only: syncs completed (or the flip word)
};
static_assert(sizeof(GridBarrierState) <= 256,
              "a launch-wide barrier's state is one launch scratch block");

/// A work-group's part of a launch-wide split barrier (GridSplitCombined),
/// in the Barrier's shared storage (hpp/block_barrier.h); zeroed by
/// Barrier::attach (WaitOnlyBarrier's constructor for the wait-only one).
struct GridBlockState {
  unsigned long long Pending; ///< units of warps not yet on the device word
  unsigned Mirror;            ///< the latest phase this group's poller saw
  unsigned Poller;            ///< 1 while one of the group's warps polls
  /// The wait-only grid barrier (hpp/grid_wait.h, GridSyncFlag): the syncs
  /// the group has made, kept by its first work-item.
  unsigned long long Syncs;
  unsigned Done; ///< GridSplitGroup: flushes whose phase has completed
  unsigned Gone; ///< the group's withdrawn work-items (skip())
};

/// How the launch-wide split barrier arrives and waits (file comment).
enum GridSplitKind {
  GridSplitFenced,
  GridSplitAcqRel,
  GridSplitCombined,
  GridSplitCombinedDelay,
  GridSplitGroup,
  GridSplitGroupFence
};

/// The runtime's choice for hpp::Barrier across work-groups; the others stay
/// for bench/grid_sync_bench.cu, which times them all (H200, ratio to
/// grid.sync: Fenced 4.22, AcqRel 3.37, Combined 2.40, CombinedDelay 2.24,
/// Group 2.06, GroupFence 2.01).
constexpr GridSplitKind LaunchSplitKind = GridSplitGroupFence;

#if !defined(HPP_BACKEND_CPU)
/// The calling lane's index in its warp.
__device__ inline int gridBarrierLane() {
#if defined(HPP_BACKEND_CUDA)
  unsigned Lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(Lane));
  return int(Lane);
#else
  return laneId();
#endif
}

/// A short pause in a poll loop (HIP: s_sleep, so that a polling wavefront
/// does not starve the others; CUDA: \p Ns nanoseconds, none when 0).
__device__ __forceinline__ void gridPause(unsigned Ns) {
#if defined(HPP_BACKEND_CUDA)
  if (Ns)
    __nanosleep(Ns);
#else
  (void)Ns;
  __builtin_amdgcn_s_sleep(1);
#endif
}

/// Whether adding \p Add (arrivals only or withdrawals only) to the counts
/// \p Old completes the phase of a barrier of \p Count participants, and
/// then how many arrivals the phase takes off (\p Take): not when the
/// phase was already due before (its completing lane has not taken them off
/// yet). As the reference runtime counts one at a time: arrivals complete
/// the phase at the count, the rest stay for the next phase; withdrawals
/// complete it with the arrivals there were, and none stays (before, the
/// count less the withdrawals was taken off, which left withdrawals past
/// the completing one as arrivals of the next phase).
__device__ __forceinline__ bool gridCompletes(unsigned Count,
                                              unsigned long long Old,
                                              unsigned long long Add,
                                              unsigned long long &Take) {
  const unsigned long long New = Old + Add;
  const unsigned long long OldLeft = Count - (Old >> 32);
  const unsigned long long Left = Count - (New >> 32);
  const bool WasDue = OldLeft != 0 && (Old & 0xffffffffull) >= OldLeft;
  Take = Add >> 32 ? (Old & 0xffffffffull) : Left;
  return Left != 0 && (New & 0xffffffffull) >= Left && !WasDue;
}

/// The split barrier as measured before (GridSplitFenced): full fences,
/// each warp's lane polls with a growing back-off.
__device__ __forceinline__ void
gridArriveFenced(GridBarrierState *S, unsigned Count, unsigned long long Unit,
                 bool Wait, bool Leader, unsigned NumLanes) {
  if (!Leader)
    return;
  volatile unsigned *Phase = &S->Phase;
  const unsigned Seen = *Phase;
  __threadfence();
  const unsigned long long Add = (unsigned long long)NumLanes * Unit;
  const unsigned long long Old = atomicAdd(&S->Counts, Add);
  unsigned long long Take;
  if (gridCompletes(Count, Old, Add, Take)) {
    atomicAdd(&S->Counts, 0ull - Take); // Phase over; extras stay.
    __threadfence();
    atomicAdd(&S->Phase, 1u);
  } else if (Wait) {
    unsigned Backoff = 32;
    while (*Phase == Seen) {
      gridPause(Backoff);
      Backoff = Backoff < 256 ? Backoff * 2 : Backoff;
    }
  }
  __threadfence();
}

/// Adds \p Add units (already combined) to the device word; true when they
/// completed the phase, which is then advanced (release: every arrival the
/// acq_rel atomic acquired is ordered before the new phase). \p OneSided
/// (GridSplitGroupFence): the same patterns with one-sided fences, a
/// release fence before each relaxed write that releases and an acquire
/// fence after the atomic's read when it completed the phase.
template <bool OneSided = false>
__device__ __forceinline__ bool
gridAddUnits(GridBarrierState *S, unsigned Count, unsigned long long Add) {
  unsigned long long Old;
  if constexpr (OneSided) {
    scoped::fenceReleaseOnlyGpu();
    Old = scoped::addRelaxedGpuOld(&S->Counts, Add);
  } else {
    Old = scoped::addAcqRel<true>(&S->Counts, Add);
  }
  unsigned long long Take;
  if (!gridCompletes(Count, Old, Add, Take))
    return false;
  if constexpr (OneSided)
    scoped::fenceAcquireOnlyGpu(); // Every arrival before, for the waiters.
  scoped::addRelaxedGpu(&S->Counts, 0ull - Take); // Phase over; extras stay.
  if constexpr (OneSided) {
    scoped::fenceReleaseOnlyGpu(); // After the line above.
    scoped::addRelaxedGpu(&S->Phase, 1u);
  } else {
    scoped::addReleaseGpu(&S->Phase, 1u); // Release: after the line above.
  }
  return true;
}

/// Waits, polling the device word, until the phase is no longer \p Seen
/// (\p OneSided: relaxed polls, then an acquire fence).
template <bool OneSided = false>
__device__ __forceinline__ void gridPollPhase(GridBarrierState *S,
                                              unsigned Seen) {
  if constexpr (OneSided) {
    while (scoped::ldRelaxedGpu(&S->Phase) == Seen)
      gridPause(0);
    scoped::fenceAcquireOnlyGpu();
  } else {
    while (scoped::ldAcquire<true>(&S->Phase) == Seen)
      gridPause(0);
  }
}

/// Waits until the phase is no longer \p Seen, through the work-group's
/// mirror \p L (GridSplitCombined): one waiter at a time polls the device.
__device__ __forceinline__ void
gridWaitMirror(GridBarrierState *S, GridBlockState *L, unsigned Seen) {
  for (;;) {
    if (int(scoped::ldAcquire<false>(&L->Mirror) - Seen) > 0)
      break;
    if (scoped::casRelaxedCta(&L->Poller, 0u, 1u) == 0u) {
      unsigned P;
      while ((P = scoped::ldAcquire<true>(&S->Phase)) == Seen)
        gridPause(0);
      scoped::stReleaseCta(&L->Mirror, P); // Phases only grow: P is newest.
      scoped::stReleaseCta(&L->Poller, 0u);
      break;
    }
    gridPause(0);
  }
#if defined(HPP_BACKEND_HIP)
  // The poller's device-scope acquire invalidated its CU's caches; make
  // sure of this wavefront's, wherever it runs (WGP mode on gfx10+).
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
#endif
}

/// GridSplitGroup's wait for the \p N lanes of the calling warp (its
/// leader calls) on a barrier of \p Count participants (file comment);
/// \p OneSided: GridSplitGroupFence.
template <bool OneSided>
__device__ __forceinline__ void gridWaitGroup(GridBarrierState *S,
                                              GridBlockState *L, unsigned Count,
                                              unsigned N) {
  const unsigned long long Old = scoped::addReleaseCtaOld(&L->Pending, N);
  const unsigned Flush = unsigned(Old >> 32);
  if (Old & 0xffffffffull) { // Flush's flusher carries these units.
    while (int(scoped::ldAcquire<false>(&L->Done) - Flush) <= 0)
      gridPause(0);
    return;
  }
  // This warp flushes. The phase read is in flight while the group joins.
  const unsigned Seen = scoped::ldRelaxedGpu(&S->Phase);
  const unsigned Live =
      blockDim.x * blockDim.y * blockDim.z - scoped::ldRelaxedCta(&L->Gone);
  const long long Start = clock64();
  while ((scoped::ldRelaxedCta(&L->Pending) & 0xffffffffull) < Live &&
         clock64() - Start < 2048)
    gridPause(0);
  const unsigned long long Next = (unsigned long long)(Flush + 1) << 32;
  const unsigned long long Units =
      scoped::exchAcquireCta(&L->Pending, Next) & 0xffffffffull;
  if (!gridAddUnits<OneSided>(S, Count, Units))
    gridPollPhase<OneSided>(S, Seen);
  scoped::maxReleaseCta(&L->Done, Flush + 1);
}

/// Adds \p Unit (1: an arrival, 1 << 32: a withdrawal) for every lane of
/// the warp calling now, of a barrier of \p Count participants whose
/// work-group state is \p L; with \p Wait, then waits until the phase ends.
/// Kind \p K: see the file comment. Inline here; Barrier::wait() reaches
/// it through an out-of-line call of its own (hpp/barrier.h,
/// WaitScopeCall), which with GridSplitGroupFence's larger code measured
/// faster than inlining it at both scopes (H200, bench/barrier_bench.cu
/// and grid_sync_bench.cu: 5.66x against 6.10x __syncthreads, 1.88x
/// against 1.98x grid.sync).
template <GridSplitKind K = LaunchSplitKind>
__device__ __forceinline__ void gridArrive(GridBarrierState *S,
                                           GridBlockState *L, unsigned Count,
                                           unsigned long long Unit, bool Wait) {
  const LaneMask Lanes = activeMask();
  const bool Leader = ffsMask(Lanes) - 1 == gridBarrierLane();
#if defined(HPP_BACKEND_CUDA)
  __syncwarp(Lanes); // The lanes' earlier writes before the arrival.
#endif
  const unsigned N = unsigned(popcMask(Lanes));
  constexpr bool Group = K == GridSplitGroup || K == GridSplitGroupFence;
  if (Leader && Unit != 1) // skip(): GridSplitGroup's flushers wait less.
    scoped::addRelaxedCta(&L->Gone, N);
  if constexpr (K == GridSplitFenced) {
    gridArriveFenced(S, Count, Unit, Wait, Leader, N);
  } else if (Group && Wait && Unit == 1) {
    if (Leader)
      gridWaitGroup<K == GridSplitGroupFence>(S, L, Count, N);
  } else if (Leader) {
    // Read before this arrival can reach the device word (the release of
    // the atomic below, or of the group's Pending, orders it first).
    const unsigned Seen = scoped::ldRelaxedGpu(&S->Phase);
    const unsigned long long Add = (unsigned long long)N * Unit;
    bool Completed = false;
    if (K == GridSplitAcqRel || Group || Unit != 1) {
      // A withdrawal goes to the device word alone: combined with
      // arrivals, a phase it completed would keep it as an arrival.
      Completed = gridAddUnits(S, Count, Add);
    } else {
      if (scoped::addAcqRel<false>(&L->Pending, Add) == 0) {
        if (K == GridSplitCombinedDelay)
          gridPause(128);
        Completed =
            gridAddUnits(S, Count, scoped::exchAcqRelCta(&L->Pending, 0ull));
      }
    }
    if (Wait && !Completed) {
      if constexpr (K == GridSplitAcqRel)
        gridPollPhase(S, Seen);
      else
        gridWaitMirror(S, L, Seen);
    }
  }
#if defined(HPP_BACKEND_CUDA)
  __syncwarp(Lanes); // The others go on when the leader does.
#else
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
#endif
}
#endif

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_GRID_BARRIER_H
