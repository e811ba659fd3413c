//===- hpp/cpu/warp_ops.h - Warp operations on the simulated mvector ------===//
//
// Part of hpp-rewrite. CPU reference runtime, shared with the device
// runtime's CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The collective operations of the simulated mvector (and the work-group
/// barrier), as functions of hpp::cpu::warp that take the name to report and
/// the caller's file:line. Two headers give them their spellings, so both
/// runtimes share one implementation:
///  - hpp/cpu/warp.h: the CUDA-spelled intrinsics of the dialect
///    (__shfl_sync, __ballot_sync, ...);
///  - runtime/hpp/backend/cpu_warp.h: the device runtime's hpp::shflSync,
///    hpp::ballotSync, ... and backend/cpu.h's __syncthreads and
///    cooperative-groups sync.
///
/// Every operation checks that the calling lane is in its mask (a 32-bit
/// mask zero-extends, so 0xffffffff names lanes 0-31 only on a 64-wide
/// mvector, as on wave64) and that a shuffle width is a power of two up to
/// the mvector width, then blocks in GroupExecutor::collective (which
/// reports divergence). Who takes part is the caller's choice (Exact): every
/// lane of the mvector (or half) that has not exited, the dialect's rule
/// (spec 3.2), or exactly the lanes of the mask, CUDA's, which the device
/// runtime's CPU backend asks for (hpp/cpu/mask_collectives.h). Errors are
/// hpp::RuntimeError with the given name and file:line.
///
/// CUDA's integer bit intrinsics (__popc, __popcll, __ffs, __ffsll, __clz,
/// __clzll) are here too, in the global namespace, for both runtimes.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_WARP_OPS_H
#define HPP_CPU_WARP_OPS_H

#include "hpp/core/error.h"
#include "hpp/cpu/group_executor.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

namespace hpp {
namespace cpu {
namespace warp {

/// A 64-bit lane mask.
using Mask64 = unsigned long long;

inline GroupExecutor &executorFor(const char *Name, const char *File,
                                  int Line) {
  GroupExecutor *E = GroupExecutor::current();
  if (!E)
    throw RuntimeError(Name, File, Line,
                       "warp operation called outside device code");
  return *E;
}

inline std::string hexMask(Mask64 M) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "0x%llx", M);
  return Buf;
}

/// Runs a mvector collective for the calling lane; checks the lane is in
/// its mask and the shuffle width (0: the whole mvector). \p Half: the
/// operation came with a 32-bit mask, so its warp is the caller's 32-lane
/// half of the mvector (the other half completes its own operations).
/// \p Exact: exactly the lanes of the mask take part (CUDA's rule, the
/// device runtime's CPU backend: hpp/cpu/mask_collectives.h); otherwise
/// every lane that has not exited (the dialect's).
inline std::uint64_t collective(CollectiveKind Kind, const char *Name,
                                Mask64 Mask, std::uint64_t Value, int Arg,
                                int Width, const char *File, int Line,
                                bool Half = false, bool Exact = false) {
  GroupExecutor &E = executorFor(Name, File, Line);
  unsigned W = E.mvectorWidth();
  unsigned Lane = E.currentLane();
  if (!(Mask >> Lane & 1))
    throw RuntimeError(
        Name, File, Line,
        "lane " + std::to_string(Lane) + " is not in its mask " +
            hexMask(Mask) + " (width " + std::to_string(W) +
            "; a 32-bit mask covers lanes 0-31 only on a 64-wide mvector)");
  if (Width <= 0)
    Width = static_cast<int>(W);
  if ((Width & (Width - 1)) != 0 || static_cast<unsigned>(Width) > W)
    throw RuntimeError(Name, File, Line,
                       "width " + std::to_string(Width) +
                           " is not a power of two up to the mvector width " +
                           std::to_string(W));
  CollectiveOp Op{Kind, Name, File, Line, Mask, Value, Arg, Width, Half, Exact};
  return E.collective(Op);
}

template <class T> std::uint64_t toBits(const T &V) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                "warp shuffles take arithmetic values of at most 8 bytes");
  std::uint64_t B = 0;
  std::memcpy(&B, &V, sizeof(T));
  return B;
}
/// The value whose bits \p B holds (T need not be default constructible).
template <class T> T fromBits(std::uint64_t B) {
  union Storage {
    Storage() : Dummy(0) {}
    unsigned char Dummy;
    T Value;
  } S;
  // Through void *: T may have protected members (CUDA's __half), which
  // GCC's -Wclass-memaccess would report for a typed destination.
  std::memcpy(static_cast<void *>(&S.Value), &B, sizeof(T));
  return S.Value;
}

/// A shuffle (Kind: Shfl, ShflUp, ShflDown or ShflXor); \p LaneArg is the
/// source lane, delta or xor mask.
template <class T>
T shuffle(CollectiveKind Kind, const char *Name, Mask64 Mask, T Var,
          int LaneArg, int Width, const char *File, int Line, bool Half = false,
          bool Exact = false) {
  return fromBits<T>(collective(Kind, Name, Mask, toBits(Var), LaneArg, Width,
                                File, Line, Half, Exact));
}

inline Mask64 ballot(const char *Name, Mask64 Mask, int Predicate,
                     const char *File, int Line, bool Half = false,
                     bool Exact = false) {
  return collective(CollectiveKind::Ballot, Name, Mask, Predicate != 0, 0, 0,
                    File, Line, Half, Exact);
}
inline int any(const char *Name, Mask64 Mask, int Predicate, const char *File,
               int Line, bool Half = false, bool Exact = false) {
  return static_cast<int>(collective(CollectiveKind::Any, Name, Mask,
                                     Predicate != 0, 0, 0, File, Line, Half,
                                     Exact));
}
inline int all(const char *Name, Mask64 Mask, int Predicate, const char *File,
               int Line, bool Half = false, bool Exact = false) {
  return static_cast<int>(collective(CollectiveKind::All, Name, Mask,
                                     Predicate != 0, 0, 0, File, Line, Half,
                                     Exact));
}
/// The lanes of the caller's mvector (\p Half: of its 32-lane half) that
/// have not exited; \p Exact: that wait at this same call, once the
/// mvector can go no further without it (hpp/cpu/mask_collectives.h).
inline Mask64 activeMask(const char *Name, const char *File, int Line,
                         bool Half = false, bool Exact = false) {
  return collective(CollectiveKind::ActiveMask, Name, ~0ull, 0, 0, 0, File,
                    Line, Half, Exact);
}
/// The lanes of \p Mask whose \p Value has the bits of the caller's
/// (CollectiveKind::MatchAny), or \p Mask if every lane of it has them and
/// 0 otherwise (MatchAll). Exact-mask collectives only.
template <class T>
Mask64 match(CollectiveKind Kind, const char *Name, Mask64 Mask, T Value,
             const char *File, int Line, bool Half) {
  return collective(Kind, Name, Mask, toBits(Value), 0, 0, File, Line, Half,
                    /*Exact=*/true);
}
/// Waits for the lanes of the caller's mvector (all of them: on AMD the
/// whole wavefront synchronizes, whatever the mask; \p Half: of its 32-lane
/// half).
inline void syncWarp(const char *Name, Mask64 Mask, const char *File, int Line,
                     bool Half = false) {
  collective(CollectiveKind::SyncWarp, Name, Mask, 0, 0, 0, File, Line, Half);
}
/// Waits for every not-exited work-item of the caller's work-group.
inline void groupBarrier(const char *Name, const char *File, int Line) {
  GroupExecutor &E = executorFor(Name, File, Line);
  CollectiveOp Op{
      CollectiveKind::GroupBarrier,       Name, File, Line, ~0ull, 0, 0,
      static_cast<int>(E.mvectorWidth()), false};
  E.collective(Op);
}

/// __popcll, __ffsll, __clzll over a 64-bit mask.
inline int popc(Mask64 X) { return __builtin_popcountll(X); }
inline int ffs(Mask64 X) { return __builtin_ffsll(static_cast<long long>(X)); }
inline int clz(Mask64 X) { return X == 0 ? 64 : __builtin_clzll(X); }

} // namespace warp
} // namespace cpu
} // namespace hpp

// CUDA's integer bit intrinsics (device functions on CUDA and HIP): the
// dialect accepts them, and rewritten code keeps them where they do not
// apply to a lane mask.
inline int __popc(unsigned X) { return __builtin_popcount(X); }
inline int __popcll(unsigned long long X) { return ::hpp::cpu::warp::popc(X); }
inline int __ffs(int X) { return __builtin_ffs(X); }
inline int __ffsll(long long X) {
  return ::hpp::cpu::warp::ffs(static_cast<unsigned long long>(X));
}
inline int __clz(int X) {
  return X == 0 ? 32 : __builtin_clz(static_cast<unsigned>(X));
}
inline int __clzll(long long X) {
  return ::hpp::cpu::warp::clz(static_cast<unsigned long long>(X));
}

#endif // HPP_CPU_WARP_OPS_H
