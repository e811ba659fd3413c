//===- hpp/group_watch.h - Who waits, who has left --------------*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends (the CPU
// backend has the type only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The work-group's GroupWatch and the slow path of a barrier wait
/// (parkedWait): how hpp/block_barrier.h tells a deadlocked work-group
/// from a slow one, exactly. The file comment of hpp/block_barrier.h
/// describes the protocol; markGroupExit counts the work-items that left
/// the kernel (BarrierExitGuard).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_GROUP_WATCH_H
#define HPP_RUNTIME_GROUP_WATCH_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/device_error.h"
#include "hpp/grid_barrier.h"

namespace hpp {
namespace detail {

/// Who in the work-group is parked in a wait, and who has left.
struct GroupWatch {
  /// Parked (bits 0-15), exited (16-31), changes to either (32-63).
  unsigned long long Word;
  unsigned Round;    ///< the current confirmation round
  unsigned Confirms; ///< round (bits 16-31), parked that confirmed (0-15)
  unsigned Probe;    ///< 1 while a waiter runs a round
  unsigned Deadlock; ///< 0; 3 while deciding; 1 recording; 2 not recording
#if defined(HPP_BACKEND_HIP)
  /// The lanes of each wavefront that have left the kernel.
  unsigned long long Exited[32];
#endif
};

#if !defined(HPP_BACKEND_CPU)
/// Polls of a wait before it enters the watch.
constexpr unsigned WaitPolls = 64;
/// Polls of a round's prober for its confirmations before it lets the
/// round go and a new one begins (parkedWait).
constexpr unsigned RoundPolls = 4096;

/// The work-group's watch: one per kernel that uses it, in shared memory.
HPP_DEVICE inline GroupWatch &groupWatch() {
  __shared__ GroupWatch Watch;
  return Watch;
}

/// One work-item of the group, before any other uses it.
HPP_DEVICE inline void initGroupWatch() {
  GroupWatch &W = groupWatch();
  W.Word = 0;
  W.Round = 0;
  W.Confirms = 0;
  W.Probe = 0;
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

/// What a deadlock report says about the barrier a waiter waits at.
struct BarrierIdentity {
  unsigned Count;
  const char *CreatedFile; ///< host address
  int CreatedLine;
  DeviceErrorSlot *Errors;
  unsigned Key;       ///< the storage's address, | 1
  unsigned Phase;     ///< see the file comment
  unsigned Arrived;   ///< in this phase
  unsigned Withdrawn; ///< in all
  /// CUDA: the pending count of the waiter's arrival token (before its
  /// warp's arrival); 0 on HIP, whose Arrived is exact.
  unsigned Pending;
};

/// The lanes of the caller's wavefront that are not in \p Lanes and cannot
/// run while \p Lanes wait (see the file comment): on AMD all of them but
/// those that left the kernel; none on CUDA.
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

/// Records where \p Lanes (the caller's, with it) wait at the barrier
/// \p Id, at \p Line, for the deadlock report of the work-group, if it
/// records one (Deadlock 1).
__forceinline__ HPP_DEVICE void recordWaiters(const BarrierIdentity &Id,
                                              LaneMask Lanes, int Line) {
  GroupWatch &W = groupWatch();
  DeviceErrorSlot *E = Id.Errors;
  if (*reinterpret_cast<volatile unsigned *>(&W.Deadlock) != 1u || !E)
    return;
  for (unsigned I = 0; I < DeviceErrorBarriers; ++I) {
    const unsigned Old = atomicCAS(&E->Barriers[I].Key, 0u, Id.Key);
    if (Old == 0 || Old == Id.Key) {
      DeviceBarrierInfo &B = E->Barriers[I];
      B.Count = Id.Count;
      atomicMax(&B.Phase, Id.Phase);
      atomicMax(&B.Arrived, Id.Arrived);
      B.Withdrawn = Id.Withdrawn;
      B.CreatedLine = Id.CreatedLine;
      B.CreatedFile = Id.CreatedFile;
      break;
    }
  }
  const unsigned Base = groupLinearId() - unsigned(gridBarrierLane());
  for (LaneMask Rest = Lanes; Rest; Rest &= Rest - 1) {
    const unsigned Item = Base + unsigned(ffsMask(Rest) - 1);
    if (Item < DeviceErrorItems)
      E->Items[Item] = {Line, Id.Key, Id.Pending};
  }
  __threadfence();
}

/// Adds \p N confirmations to round \p Round, unless a later round began.
/// The prober resets the count before it publishes the round, but the
/// caller, which read the round, may still read the count of the round
/// before (two loads, no order between them): it reads again until the
/// count is this round's or a later one's. Counting a confirmation into
/// the round before, or dropping it, would leave the prober waiting for
/// it.
HPP_DEVICE inline void confirmRound(GroupWatch &W, unsigned Round, unsigned N) {
  volatile unsigned &Count = W.Confirms;
  unsigned Seen = Count;
  for (;;) {
    const short Ahead = short((Seen >> 16) - (Round & 0xffffu));
    if (Ahead > 0)
      return;
    if (Ahead < 0) {
      Seen = Count;
      continue;
    }
    const unsigned Old = atomicCAS(&W.Confirms, Seen, Seen + N);
    if (Old == Seen)
      return;
    Seen = Old;
  }
}

/// The decision: the first waiter to see the certain deadlock decides
/// whether the work-group records it (the launch's slot is free).
HPP_DEVICE inline void declareDeadlock(GroupWatch &W, DeviceErrorSlot *Errors,
                                       const char *File, int Line) {
  if (atomicCAS(&W.Deadlock, 0u, 3u) != 0u)
    return;
  const unsigned D = claimDeviceError(Errors) ? 1u : 2u;
  if (D == 1) {
    fillDeviceError(Errors, BarrierDeadlockError, File, Line);
    fillDeviceErrorGroup(Errors);
    publishDeviceError(Errors); // Read after the launch, when all is.
  }
  __threadfence_block();
  atomicExch(&W.Deadlock, D);
}

/// A wait still blocked after WaitPolls polls, in which the caller polls
/// for \p N work-items (see the file comment): parks them, polls
/// \p Released and the watch; returns false once released, true when the
/// work-group is deadlocked (the caller then records where its lanes wait,
/// and they end). \p Errors, \p File and \p Line: the launch's record and
/// the wait, for the decision. The fast path stays small: this runs only
/// after WaitPolls polls.
template <class ReleasedFn>
__forceinline__ HPP_DEVICE bool parkedWait(ReleasedFn Released, unsigned N,
                                           DeviceErrorSlot *Errors,
                                           const char *File, int Line) {
  GroupWatch &W = groupWatch();
  volatile GroupWatch &V = W;
  const unsigned Size = blockDim.x * blockDim.y * blockDim.z;
  const unsigned long long Change = 1ull << 32;
  // The round is read before the caller parks: a round that counts it as
  // parked begins after, and the caller confirms it (read after parking,
  // it could be that round already, never confirmed).
  unsigned Seen = V.Round;
  __threadfence_block();
  atomicAdd(&W.Word, Change + N);
  auto Leave = [&] {
    atomicAdd(&W.Word, Change - N); // Parked - N, changes + 1.
    return false;
  };
  for (;;) {
    if (Released())
      return Leave();
    unsigned D = V.Deadlock;
    if (D == 3u) {
      while ((D = V.Deadlock) == 3u) {
      }
    }
    if (D)
      return true;
    if (V.Round != Seen) { // A round asks whether it is still blocked.
      Seen = V.Round;
      if (Released())
        return Leave();
      confirmRound(W, Seen, N);
    }
    unsigned long long G = V.Word;
    if (unsigned(G & 0xffffu) + unsigned(G >> 16 & 0xffffu) == Size &&
        atomicCAS(&W.Probe, 0u, 1u) == 0u) {
      // The round: every parked waiter confirms, nothing changes.
      const unsigned Before = unsigned(V.Word >> 32);
      const unsigned Round = V.Round + 1;
      atomicExch(&W.Confirms, (Round & 0xffffu) << 16);
      __threadfence_block();
      atomicExch(&W.Round, Round);
      Seen = Round;
      if (Released()) {
        atomicExch(&W.Probe, 0u);
        return Leave();
      }
      confirmRound(W, Round, N);
      // A confirmation not seen after RoundPolls polls (a waiter that is
      // late): the round is let go and a new one asks again (the waiters
      // confirm a round they have not seen), so nothing waits on one
      // confirmation for ever; only a round that all parked waiters
      // confirm with nothing changed decides.
      for (unsigned Poll = 0; Poll < RoundPolls; ++Poll) {
        G = V.Word;
        if (unsigned(G >> 32) != Before ||
            unsigned(G & 0xffffu) + unsigned(G >> 16 & 0xffffu) != Size)
          break; // Something moved: not (yet) a deadlock.
        if ((V.Confirms & 0xffffu) == unsigned(G & 0xffffu)) {
          declareDeadlock(W, Errors, File, Line);
          break;
        }
#if defined(HPP_BACKEND_CUDA)
        __nanosleep(64);
#else
        __builtin_amdgcn_s_sleep(1);
#endif
      }
      atomicExch(&W.Probe, 0u);
      continue;
    }
#if defined(HPP_BACKEND_CUDA)
    __nanosleep(256);
#else
    __builtin_amdgcn_s_sleep(2);
#endif
  }
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
    atomicAdd(&W.Word,
              (1ull << 32) + ((unsigned long long)popcMask(Lanes) << 16));
  }
}
#endif // !HPP_BACKEND_CPU

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_GROUP_WATCH_H
