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
/// exactly (no timeout decides) and reported as the reference runtime
/// reports it ("Barrier::wait failed: deadlock: ...", hpp/device_error.h),
/// instead of hanging the GPU.
///
/// The barriers are what they were measured as (docs/benchmarks.md): on
/// CUDA `cuda::barrier<thread_scope_block>` (mbarrier: arrive, then
/// try_wait); on HIP a counter word (arrivals in the low half, withdrawals
/// in the high half) and a phase word, the lanes of a wavefront that call
/// together arriving together, one lane polling. A wait polls
/// WaitPolls times as before; only a wait still blocked after that enters
/// the watch (parkedWait; inline, as gridArrive is: a call in the wait,
/// even one never taken, would make the kernel save registers around it):
///  - the work-group's GroupWatch word counts the work-items parked in
///    such a wait, those that left the kernel (the outlined kernel
///    declares a BarrierExitGuard before any work-item can return), and
///    every change of either;
///  - when `parked + exited` is the work-group size, every work-item still
///    in the kernel is parked, or was released and has not noticed yet.
///    One parked waiter then runs a round: it notes the change count,
///    starts a new round number, and every parked waiter checks its own
///    barrier again and, still blocked, confirms. If all confirm and
///    nothing parked, left or exited meanwhile, no work-item can arrive
///    any more: the deadlock is certain. A waiter that was released leaves
///    (a change), which ends the round;
///  - then the parked waiters record where they wait (the first
///    work-group to get there in the launch), and the work-group ends
///    (endDeviceWorkItem: no __trap, later launches run).
/// On AMD a wavefront runs one path at a time: while some of its lanes
/// wait, the others cannot run, and lanes that returned early only count
/// as exited when the wavefront reaches the kernel's end. So a parked
/// wavefront counts its other lanes (but those that did exit) as parked
/// with it (stuckLanes): a wavefront whose lanes returned early is seen
/// deadlocked. A wait that part of a wavefront skips while the rest of it
/// must still arrive (hpp-rewrite warns, [hpp-barrier-divergence]) then
/// ends in this error, naming those lanes as exited, instead of a hang.
/// Not seen: work-items that also wait at `__syncthreads`,
/// `Segment::barrier` or a launch-wide barrier (they never park: such a
/// mix still hangs).
///
/// What the message says about the barrier: on HIP its words give the
/// phase, the arrivals and the withdrawals exactly. On CUDA the mbarrier
/// is opaque: the phase is the count of the waiter's own calls on the
/// barrier (the phase when it took part in every one), the arrivals come
/// from the waiters' arrival tokens (exact unless a work-item arrive()d
/// after the last waiter), the withdrawals from a counter skip() keeps.
/// libcu++ arrives once per warp for the lanes that arrive together, and
/// each token holds the pending count before that arrival: each waiter
/// records its token's count, and the host takes the least (the last
/// arrival among the waiters) less the waiters that share it (the lanes of
/// that arrival) as what is still pending (DeviceErrorSink::error).
///
/// Cost on the fast path: a poll counter per wait; on CUDA a register
/// increment per call and a shared-memory atomic per warp per skip(); on
/// HIP a load of the watch's word after each wait. The kernel of a body
/// with a barrier runs one shared atomic per warp when its work-items exit.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BLOCK_BARRIER_H
#define HPP_RUNTIME_BLOCK_BARRIER_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/device_error.h"
#include "hpp/grid_barrier.h"
#include "hpp/group_watch.h"

#include <cstdint>

#if defined(HPP_BACKEND_CUDA)
#include <cuda/barrier>
#include <cuda/std/chrono>
#endif

namespace hpp {
namespace detail {

/// How a wait on the work-group's split barrier arrives on CUDA
/// (blockArriveAs); BlockSplitKind is the runtime's, the other stays for
/// bench/barrier_bench.cu, which times both.
enum BlockWaitKind { BlockWaitLibcu, BlockWaitPtx };
constexpr BlockWaitKind BlockSplitKind = BlockWaitLibcu;

/// A work-group's barrier state, declared `__shared__` by the kernel.
#if defined(HPP_BACKEND_CUDA)
using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;
/// Raw storage, so that the `__shared__` declaration needs no dynamic
/// initialization; attach() constructs the barrier in it (cuda::init).
struct BlockBarrierStorage {
  alignas(BlockBarrier) unsigned char Bytes[sizeof(BlockBarrier)];
  unsigned Withdrawn;  ///< skip()s so far, for the deadlock report
  GridBlockState Grid; ///< the group's part of a launch-wide barrier
  HPP_DEVICE BlockBarrier *get() {
    return reinterpret_cast<BlockBarrier *>(Bytes);
  }
};
#else
struct BlockBarrierStorage {
  unsigned Counts; ///< arrivals (low 16 bits), withdrawals (high 16 bits)
  unsigned Phase;
  GridBlockState Grid; ///< the group's part of a launch-wide barrier
};
#endif

#if !defined(HPP_BACKEND_CPU)

#if defined(HPP_BACKEND_CUDA)
/// The mbarrier's pending arrivals before the arrival that returned \p T.
HPP_DEVICE inline unsigned pendingBefore(BlockBarrier::arrival_token T) {
  static_assert(sizeof(T) == 8, "an mbarrier state is 64 bits");
  unsigned long long State;
  __builtin_memcpy(&State, &T, 8);
  unsigned Pending;
  asm volatile("mbarrier.pending_count.b64 %0, %1;"
               : "=r"(Pending)
               : "l"(State));
  return Pending;
}

/// The wait of \p S (token \p T) after WaitPolls polls (see the file
/// comment); true when deadlocked, after recording where it waits.
__forceinline__ HPP_DEVICE bool blockWaitSlow(BlockBarrierStorage *S,
                                              BlockBarrier::arrival_token T,
                                              BarrierIdentity Id,
                                              const char *File, int Line) {
  BlockBarrier *B = S->get();
  auto Released = [&] {
    BlockBarrier::arrival_token Copy = T;
    return B->try_wait_for(static_cast<BlockBarrier::arrival_token &&>(Copy),
                           cuda::std::chrono::nanoseconds(0));
  };
  if (!parkedWait(Released, 1, Id.Errors, File, Line))
    return false;
  Id.Key = unsigned(reinterpret_cast<std::uintptr_t>(S)) | 1u;
  Id.Withdrawn = *reinterpret_cast<volatile unsigned *>(&S->Withdrawn);
  Id.Pending = pendingBefore(T); // The host counts the arrivals from it.
  recordWaiters(Id, LaneMask(1u) << gridBarrierLane(), Line);
  return true;
}

/// One poll of the phase of token \p T of \p B. On sm_90 and later the
/// mbarrier's try_wait, which lets the hardware suspend the thread until the
/// phase completes or a time limit of its own passes, as libcu++'s
/// arrive_and_wait does (its try_wait_for with a zero duration reads the
/// clock and tests: the split barrier's step took 1.6 times as long);
/// before sm_90, which has no try_wait, libcu++'s test.
__device__ __forceinline__ bool blockPoll(BlockBarrier *B,
                                          BlockBarrier::arrival_token T) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned long long State;
  __builtin_memcpy(&State, &T, 8);
  const unsigned Address = static_cast<unsigned>(
      __cvta_generic_to_shared(cuda::device::barrier_native_handle(*B)));
  unsigned Done;
  asm volatile("{\n\t.reg .pred P;\n\t"
               "mbarrier.try_wait.shared::cta.b64 P, [%1], %2;\n\t"
               "selp.u32 %0, 1, 0, P;\n\t}"
               : "=r"(Done)
               : "r"(Address), "l"(State)
               : "memory");
  return Done != 0;
#else
  return B->try_wait_for(static_cast<BlockBarrier::arrival_token &&>(T),
                         cuda::std::chrono::nanoseconds(0));
#endif
}

/// The arrival of Barrier::wait on CUDA, of kind \p Kind (BlockSplitKind):
/// libcu++'s arrive(), or on sm_90 the same `mbarrier.arrive` (release,
/// cta) written out, without libcu++'s test of the barrier's state space.
template <int Kind>
__device__ __forceinline__ BlockBarrier::arrival_token
blockArriveAs(BlockBarrier *B) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (Kind == BlockWaitPtx) {
    const unsigned Address = static_cast<unsigned>(
        __cvta_generic_to_shared(cuda::device::barrier_native_handle(*B)));
    unsigned long long State;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];"
                 : "=l"(State)
                 : "r"(Address)
                 : "memory");
    BlockBarrier::arrival_token T;
    __builtin_memcpy(&T, &State, 8);
    return T;
  }
#endif
  return B->arrive();
}

/// Barrier::wait on CUDA: the mbarrier's arrive and try_wait; a wait still
/// blocked after WaitPolls polls goes on in blockWaitSlow (inline: a call,
/// even one never taken, makes the kernel keep more registers and a stack
/// frame). \p Kind: how it arrives (blockArriveAs).
template <int Kind = BlockSplitKind>
__device__ __forceinline__ void blockWait(BlockBarrierStorage *S,
                                          const BarrierIdentity &Id,
                                          const char *File, int Line) {
  BlockBarrier *B = S->get();
  const BlockBarrier::arrival_token T = blockArriveAs<Kind>(B);
  // Written so, and left to the compiler to unroll, the loop costs least
  // (barrier_bench's split barrier on the H100: 0.219 us a step; a
  // `for` loop over the polls with the slow path after it, unrolled or
  // not, 0.231-0.265 us; no slow path at all, 0.170 us).
  unsigned Poll = 0;
  while (!blockPoll(B, T))
    if (__builtin_expect(++Poll == WaitPolls, 0)) {
      if (blockWaitSlow(S, T, Id, File, Line))
        endDeviceWorkItem();
      return;
    }
}

/// Barrier::skip on CUDA; counts the withdrawal for the deadlock report.
__device__ __forceinline__ void blockSkip(BlockBarrierStorage *S) {
  const LaneMask Lanes = activeMask();
  if (ffsMask(Lanes) - 1 == gridBarrierLane())
    atomicAdd(&S->Withdrawn, unsigned(popcMask(Lanes)));
  S->get()->arrive_and_drop();
}
#endif

#if defined(HPP_BACKEND_HIP)
/// The wait of \p Lanes on \p S in phase \p Phase after WaitPolls polls
/// (see the file comment); true when deadlocked, after recording where
/// they wait.
__forceinline__ HPP_DEVICE bool blockWaitSlow(BlockBarrierStorage *S,
                                              unsigned Phase, LaneMask Lanes,
                                              BarrierIdentity Id,
                                              const char *File, int Line) {
  auto Released = [&] {
    return __hip_atomic_load(&S->Phase, __ATOMIC_ACQUIRE,
                             __HIP_MEMORY_SCOPE_WORKGROUP) != Phase;
  };
  const unsigned N = unsigned(popcMask(Lanes)) + stuckLanes(Lanes);
  if (!parkedWait(Released, N, Id.Errors, File, Line))
    return false;
  const unsigned Counts = *reinterpret_cast<volatile unsigned *>(&S->Counts);
  Id.Key = unsigned(reinterpret_cast<std::uintptr_t>(S)) | 1u;
  Id.Phase = *reinterpret_cast<volatile unsigned *>(&S->Phase);
  Id.Arrived = Counts & 0xffffu;
  Id.Withdrawn = Counts >> 16;
  recordWaiters(Id, Lanes, Line);
  return true;
}

/// Barrier's operations on HIP: adds \p Unit (an arrival or a withdrawal)
/// for every lane of the wavefront calling now; with \p Wait, the
/// wavefront then waits for the phase to end (after WaitPolls polls, in
/// blockWaitSlow). The lane that completes the phase resets the arrivals
/// and starts the next one.
__device__ __forceinline__ void blockArrive(BlockBarrierStorage *S,
                                            const BarrierIdentity &Id,
                                            unsigned Unit, bool Wait,
                                            const char *File, int Line) {
  const LaneMask Lanes = activeMask();
  const bool Leader = ffsMask(Lanes) - 1 == laneId();
  const unsigned Phase = __hip_atomic_load(&S->Phase, __ATOMIC_ACQUIRE,
                                           __HIP_MEMORY_SCOPE_WORKGROUP);
  if (Leader) {
    const unsigned N = unsigned(popcMask(Lanes));
    const unsigned Old = atomicAdd(&S->Counts, N * Unit);
    const unsigned New = Old + N * Unit;
    const unsigned Expected = Id.Count - (New >> 16);
    if (Expected != 0 && (New & 0xffffu) == Expected) {
      atomicAnd(&S->Counts, 0xffff0000u);
      __hip_atomic_fetch_add(&S->Phase, 1u, __ATOMIC_RELEASE,
                             __HIP_MEMORY_SCOPE_WORKGROUP);
    } else if (Wait) {
#pragma unroll 1
      for (unsigned Poll = 0;
           __hip_atomic_load(&S->Phase, __ATOMIC_ACQUIRE,
                             __HIP_MEMORY_SCOPE_WORKGROUP) == Phase;
           ++Poll) {
        if (Poll == WaitPolls) {
          blockWaitSlow(S, Phase, Lanes, Id, File, Line);
          break;
        }
        __builtin_amdgcn_s_sleep(1);
      }
    }
  }
  // The other lanes go on when the leader does (one instruction stream).
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  if (Wait && *reinterpret_cast<volatile unsigned *>(&groupWatch().Deadlock))
    endDeviceWorkItem(); // The whole work-group ends.
}
#endif

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
