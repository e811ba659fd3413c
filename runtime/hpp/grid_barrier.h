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
/// that call together arrive together: one lane adds their number with a
/// device-scope atomic and, to wait, polls the phase with a back-off
/// (__nanosleep / s_sleep); the lane whose arrival completes the phase
/// takes the phase's count off the arrivals (arrivals past it count for the
/// next phase, as in the reference runtime) and advances the phase. One
/// difference remains: when a phase gets more arrivals than its count (a
/// producer arrive()s again before the phase ends), a wait whose arrival
/// lands in the overflow, before the completing lane has taken the count
/// off, is released with this phase rather than the next.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_GRID_BARRIER_H
#define HPP_RUNTIME_GRID_BARRIER_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

namespace hpp {
namespace detail {

/// A launch-wide barrier's state, zeroed before each launch.
struct GridBarrierState {
  unsigned long long Counts; ///< arrivals (low 32 bits), withdrawals (high)
  unsigned Phase;
  unsigned Pad;
};

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

/// Adds \p Unit (1: an arrival, 1 << 32: a withdrawal) for every lane of
/// the warp calling now, of a barrier of \p Count participants; with
/// \p Wait, then waits until the phase ends. Inline: a call here, even one
/// never taken, costs the work-group split barrier's loop ~50% (a
/// register-saving call in the loop), inline code ~11% (measured on the
/// H200, bench/barrier_bench.cu).
__device__ __forceinline__ void gridArrive(GridBarrierState *S, unsigned Count,
                                           unsigned long long Unit, bool Wait) {
  const LaneMask Lanes = activeMask();
  const bool Leader = ffsMask(Lanes) - 1 == gridBarrierLane();
#if defined(HPP_BACKEND_CUDA)
  __syncwarp(Lanes); // The lanes' earlier writes before the arrival.
#endif
  if (Leader) {
    volatile unsigned *Phase = &S->Phase;
    const unsigned Seen = *Phase;
    __threadfence();
    const unsigned long long Add = (unsigned long long)popcMask(Lanes) * Unit;
    const unsigned long long Old = atomicAdd(&S->Counts, Add);
    const unsigned long long New = Old + Add;
    const unsigned long long OldLeft = Count - (Old >> 32);
    const unsigned long long Left = Count - (New >> 32);
    const bool WasDue = OldLeft != 0 && (Old & 0xffffffffull) >= OldLeft;
    if (Left != 0 && (New & 0xffffffffull) >= Left && !WasDue) {
      atomicAdd(&S->Counts, 0ull - Left); // Phase over; extras stay.
      __threadfence();
      atomicAdd(&S->Phase, 1u);
    } else if (Wait) {
      unsigned Backoff = 32;
      while (*Phase == Seen) {
#if defined(HPP_BACKEND_CUDA)
        __nanosleep(Backoff);
        Backoff = Backoff < 256 ? Backoff * 2 : Backoff;
#else
        __builtin_amdgcn_s_sleep(1);
#endif
      }
    }
    __threadfence();
  }
#if defined(HPP_BACKEND_CUDA)
  __syncwarp(Lanes); // The others go on when the leader does.
#endif
}
#endif

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_GRID_BARRIER_H
