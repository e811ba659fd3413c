//===- hpp/block_barrier.h - Work-group barriers that see deadlocks -------===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends (the CPU
// backend has the storage types only: it runs the reference runtime's
// phase counters).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The work-group state of hpp::Barrier (hpp/barrier.h) on CUDA and HIP,
/// and how a work-group that can never pass its barriers is detected
/// exactly and reported as the reference runtime reports it ("Barrier::wait
/// failed: deadlock: ...", hpp/device_error.h), instead of hanging the GPU.
///
/// A barrier is one 64-bit word in shared memory, changed by one atomic
/// add per call of the lanes of a warp (wavefront) that call together (one
/// lane adds for all; it alone polls; the others go on when it does):
///
///   bits  0-15  waiting: lanes parked in this phase
///   bits 16-31  withdrawn: lanes that skip()ped, for good
///   bits 32-47  arrivals (and withdrawals) of this phase + a bias of
///               2^16 - (count - withdrawn)
///   bits 48-63  phase
///
/// The arrival that completes a phase carries out of bits 32-47 into the
/// phase in the same atomic, so every arrival knows its phase exactly
/// (later ones count for the next phase, as in the reference runtime).
/// The completing lane then releases the phase's waiters: it takes them
/// off the work-group's parked count, advances `Released` (what waiters
/// poll), and only then re-arms the bias (with the phase's waiters
/// taken off), which may complete the next phase at once.
///
/// Deadlock: the work-group's GroupWatch word counts the work-items parked
/// in a wait (bits 0-15, biased by ParkedBias) and those that left the
/// kernel (bits 16-31: the outlined kernel declares a BarrierExitGuard
/// before any work-item can return, hpp-rewrite). Every change to it is
/// ordered so that it can only undercount the parked: a waiter parks
/// after its arrival, and a phase's waiters are taken off before they are
/// released. So `parked + exited == work-group size`, read in one word, is
/// exact: every work-item still in the kernel waits, no phase can complete
/// any more, and no release is under way. A waiting lane that sees it
/// records the deadlock (the first work-group to do so in the launch), the
/// other waiters add where they wait, and the whole work-group ends
/// (endDeviceWorkItem: no __trap, later launches run). A work-group whose
/// work-items also wait elsewhere (__syncthreads, Segment::barrier, a
/// launch-wide barrier) is never counted as deadlocked: such a mix still
/// hangs.
///
/// On AMD a wavefront runs one path at a time: while some of its lanes
/// wait, the others cannot run, and lanes that returned early only count as
/// exited when the wavefront reaches the kernel's end. So a waiting
/// wavefront counts its other lanes (but those that did exit) as parked
/// with it (stuckLanes): a wavefront whose lanes returned early is seen
/// deadlocked. A wait that part of a wavefront skips while the rest of it
/// must still arrive (hpp-rewrite warns, [hpp-barrier-divergence]) then
/// ends in this error, naming those lanes as exited, instead of a hang.
///
/// Cost, per call of a warp: one shared-memory atomic to arrive, one more
/// to park when it waits; a phase's completing lane adds three. The poll
/// reads two words.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BLOCK_BARRIER_H
#define HPP_RUNTIME_BLOCK_BARRIER_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/device_error.h"
#include "hpp/grid_barrier.h"

#include <cstdint>

namespace hpp {
namespace detail {

/// A work-group's barrier state, declared `__shared__` by the kernel
/// (see the file comment).
struct BlockBarrierStorage {
  unsigned long long Word;
  unsigned Released; ///< phases completed and released
  unsigned Pad;
};

/// Who in the work-group is parked in a wait, and who has left.
struct GroupWatch {
  unsigned Word;     ///< parked + ParkedBias (bits 0-15), exited (16-31)
  unsigned Deadlock; ///< 0; 3 while deciding; 1 recording; 2 not recording
#if defined(HPP_BACKEND_HIP)
  /// The lanes of each wavefront that have left the kernel.
  unsigned long long Exited[32];
#endif
};

#if !defined(HPP_BACKEND_CPU)
/// Keeps the parked count positive while a phase's waiters are taken off
/// before all of them have parked.
constexpr unsigned ParkedBias = 2048;
constexpr unsigned long long BarrierWaitUnit = 1;
constexpr unsigned long long BarrierWithdrawUnit = 1ull << 16;
constexpr unsigned long long BarrierArriveUnit = 1ull << 32;

/// The work-group's watch: one per kernel that uses it, in shared memory.
HPP_DEVICE inline GroupWatch &groupWatch() {
  __shared__ GroupWatch Watch;
  return Watch;
}

/// The bias of a phase that needs \p Left more arrivals.
HPP_DEVICE inline unsigned long long barrierBias(unsigned Left) {
  return Left ? (0x10000ull - Left) << 32 : 0;
}

/// One work-item of the group, before any other uses them.
HPP_DEVICE inline void initBlockBarrier(BlockBarrierStorage &S,
                                        unsigned Count) {
  S.Word = barrierBias(Count);
  S.Released = 0;
  S.Pad = 0;
}
HPP_DEVICE inline void initGroupWatch() {
  GroupWatch &W = groupWatch();
  W.Word = ParkedBias;
  W.Deadlock = 0;
#if defined(HPP_BACKEND_HIP)
  for (unsigned long long &E : W.Exited)
    E = 0;
#endif
}

/// The calling work-item's index in its work-group (X fastest).
HPP_DEVICE inline unsigned groupLinearId() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/// The lanes of the caller's wavefront that are not in \p Lanes and can
/// not run while \p Lanes wait, that is all of them on AMD (one program
/// counter per wavefront), but those that left the kernel: a wait counts
/// them as parked with its own lanes, so that a wavefront whose other
/// lanes returned early (their BarrierExitGuard only runs when the
/// wavefront gets there) is seen deadlocked. None on CUDA, whose lanes are
/// scheduled independently.
HPP_DEVICE inline unsigned stuckLanes(LaneMask Lanes) {
#if defined(HPP_BACKEND_HIP)
  const unsigned Size = unsigned(getWarpSize());
  const unsigned Base = groupLinearId() - unsigned(laneId());
  const unsigned Group = blockDim.x * blockDim.y * blockDim.z;
  const unsigned Exist = Group - Base < Size ? Group - Base : Size;
  const LaneMask All = Exist >= 64 ? ~0ull : (1ull << Exist) - 1;
  const LaneMask Exited = *reinterpret_cast<volatile unsigned long long *>(
      &groupWatch().Exited[Base / Size]);
  return unsigned(popcMask(All & ~Lanes & ~Exited));
#else
  (void)Lanes;
  return 0;
#endif
}

/// What a deadlock report says about a barrier besides its state.
struct BarrierIdentity {
  unsigned Count;
  const char *CreatedFile; ///< host address
  int CreatedLine;
  DeviceErrorSlot *Errors;
};

/// Records the deadlock \p Lanes (whose leader calls) are in at \p S, at
/// \p File : \p Line: the first caller of the work-group decides whether
/// the work-group records it (the launch's slot is free); then every
/// waiting call adds its lanes and barrier.
inline __noinline__ HPP_DEVICE void blockDeadlock(BlockBarrierStorage *S,
                                                  const BarrierIdentity &Id,
                                                  LaneMask Lanes,
                                                  const char *File, int Line) {
  GroupWatch &W = groupWatch();
  unsigned D = atomicCAS(&W.Deadlock, 0u, 3u);
  if (D == 0) {
    D = claimDeviceError(Id.Errors) ? 1u : 2u;
    if (D == 1) {
      fillDeviceError(Id.Errors, BarrierDeadlockError, File, Line);
      publishDeviceError(Id.Errors); // Read after the launch, when all is.
    }
    __threadfence_block();
    atomicExch(&W.Deadlock, D);
  } else {
    while ((D = *reinterpret_cast<volatile unsigned *>(&W.Deadlock)) == 3u) {
    }
  }
  if (D != 1)
    return;
  DeviceErrorSlot *E = Id.Errors;
  const unsigned Key = unsigned(reinterpret_cast<std::uintptr_t>(S)) | 1u;
  const unsigned long long Word =
      *reinterpret_cast<volatile unsigned long long *>(&S->Word);
  const unsigned Withdrawn = unsigned(Word >> 16) & 0xffffu;
  const unsigned Left = Withdrawn < Id.Count ? Id.Count - Withdrawn : 0;
  const unsigned Field = unsigned(Word >> 32) & 0xffffu;
  const unsigned Bias = unsigned(barrierBias(Left) >> 32);
  for (unsigned I = 0; I < DeviceErrorBarriers; ++I) {
    const unsigned Old = atomicCAS(&E->Barriers[I].Key, 0u, Key);
    if (Old == 0 || Old == Key) { // The same values from every waiter.
      DeviceBarrierInfo &B = E->Barriers[I];
      B.Count = Id.Count;
      B.Phase = *reinterpret_cast<volatile unsigned *>(&S->Released);
      B.Arrived = Field >= Bias ? Field - Bias : Field;
      B.Withdrawn = Withdrawn;
      B.CreatedLine = Id.CreatedLine;
      B.CreatedFile = Id.CreatedFile;
      break;
    }
  }
  const unsigned Base = groupLinearId() - unsigned(gridBarrierLane());
  for (LaneMask Rest = Lanes; Rest; Rest &= Rest - 1) {
    const unsigned Id2 = Base + unsigned(ffsMask(Rest) - 1);
    if (Id2 < DeviceErrorItems)
      E->Items[Id2] = {Line, Key};
  }
  __threadfence();
}

/// The phase \p New (an atomic's result that carried into the phase) is
/// complete: releases its waiters but the completing call's \p Own lanes,
/// then re-arms the bias, and goes on while that completes phases too.
__device__ __forceinline__ void completeBlockPhase(BlockBarrierStorage *S,
                                                   unsigned Count,
                                                   unsigned long long New,
                                                   unsigned Own) {
  GroupWatch &W = groupWatch();
  for (;;) {
    const unsigned Waiting = unsigned(New & 0xffffu);
    if (Waiting > Own) // Taken off before they can go.
      atomicSub(&W.Word, Waiting - Own);
    Own = 0;
    __threadfence_block();
    atomicAdd(&S->Released, 1u);
    const unsigned Withdrawn = unsigned(New >> 16) & 0xffffu;
    const unsigned long long Fix =
        barrierBias(Withdrawn < Count ? Count - Withdrawn : 0) - Waiting;
    const unsigned long long Old = atomicAdd(&S->Word, Fix);
    if (((Old + Fix) >> 48) == (Old >> 48))
      return;
    New = Old + Fix; // The next phase's arrivals were all in.
  }
}

/// Adds \p Unit (arrival, arrival and withdrawal) for every lane of the
/// warp calling now on barrier \p S; with \p Wait, then waits for the
/// phase to end, or ends the work-group when it never can (see the file
/// comment). Inline, as gridArrive is, for the same reason.
__device__ __forceinline__ void blockArrive(BlockBarrierStorage *S,
                                            const BarrierIdentity &Id,
                                            unsigned long long Unit,
                                            bool Wait, const char *File,
                                            int Line) {
  const LaneMask Lanes = activeMask();
  const bool Leader = ffsMask(Lanes) - 1 == gridBarrierLane();
#if defined(HPP_BACKEND_CUDA)
  __syncwarp(Lanes); // The lanes' earlier writes before the arrival.
#endif
  if (Leader) {
    const unsigned N = unsigned(popcMask(Lanes));
    // Parked while this call waits: its lanes, and on AMD the others of
    // its wavefront (stuckLanes).
    const unsigned Parks = Wait ? N + stuckLanes(Lanes) : 0;
    __threadfence_block();
    const unsigned long long Add = N * Unit + Parks * BarrierWaitUnit;
    const unsigned long long Old = atomicAdd(&S->Word, Add);
    const unsigned Mine = unsigned(Old >> 48);
    if (unsigned((Old + Add) >> 48) != Mine) {
      completeBlockPhase(S, Id.Count, Old + Add, Parks);
    } else if (Wait) {
      GroupWatch &W = groupWatch();
      atomicAdd(&W.Word, Parks);
      const unsigned Size = blockDim.x * blockDim.y * blockDim.z;
#if defined(HPP_BACKEND_CUDA)
      unsigned Backoff = 32;
#endif
      for (;;) {
        const unsigned R = *reinterpret_cast<volatile unsigned *>(&S->Released);
        if (short(R - Mine) > 0)
          break;
        const unsigned G = *reinterpret_cast<volatile unsigned *>(&W.Word);
        if ((G & 0xffffu) - ParkedBias + (G >> 16) == Size ||
            *reinterpret_cast<volatile unsigned *>(&W.Deadlock)) {
          blockDeadlock(S, Id, Lanes, File, Line);
          break;
        }
#if defined(HPP_BACKEND_CUDA)
        __nanosleep(Backoff);
        Backoff = Backoff < 256 ? Backoff * 2 : Backoff;
#else
        __builtin_amdgcn_s_sleep(1);
#endif
      }
    }
    __threadfence_block();
  }
#if defined(HPP_BACKEND_CUDA)
  __syncwarp(Lanes); // The others go on when the leader does.
#endif
  if (Wait && *reinterpret_cast<volatile unsigned *>(&groupWatch().Deadlock))
    endDeviceWorkItem(); // The whole work-group ends.
}

/// Counts the lanes calling now as having left the kernel.
HPP_DEVICE inline void markGroupExit() {
  const LaneMask Lanes = activeMask();
  if (ffsMask(Lanes) - 1 == gridBarrierLane()) {
    GroupWatch &W = groupWatch();
#if defined(HPP_BACKEND_HIP)
    const unsigned Size = unsigned(getWarpSize());
    atomicOr(&W.Exited[(groupLinearId() - unsigned(laneId())) / Size], Lanes);
#endif
    atomicAdd(&W.Word, unsigned(popcMask(Lanes)) << 16);
  }
}
#endif

/// Declared by the outlined kernel of a body that uses a Barrier (after
/// the barriers' binding, before any work-item can return): a work-item
/// that leaves the kernel, by any path, is counted as exited, so that the
/// others' waits can tell a deadlock (see the file comment). Nothing on
/// the CPU backend, whose executor knows who exited.
struct BarrierExitGuard {
  HPP_DEVICE BarrierExitGuard() {}
  BarrierExitGuard(const BarrierExitGuard &) = delete;
  BarrierExitGuard &operator=(const BarrierExitGuard &) = delete;
#if !defined(HPP_BACKEND_CPU)
  HPP_DEVICE ~BarrierExitGuard() { markGroupExit(); }
#endif
};

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BLOCK_BARRIER_H
