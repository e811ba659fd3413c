//===- hpp/cpu/warp.h - CUDA-spelled warp intrinsics on the CPU -----------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The warp intrinsics of spec 1.6, in the global namespace, executed on the
/// simulated mvector of the CPU runtime (width MVECTOR_SIZE, from
/// HPP_CPU_MVECTOR=32|64):
///   __shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync (optional
///   width, a power of two up to the mvector width, sub-partitioning like
///   CUDA), __ballot_sync __any_sync __all_sync __activemask __syncwarp,
///   __popc __popcll __ffs __ffsll __clz __clzll, and warpSize.
///
/// Collectives (all but the bit functions and warpSize) block the calling
/// work-item until every active lane of its mvector reaches the same
/// operation at the same source location; the results are then computed
/// from all lanes' data. "Active" means not exited: a lane whose body has
/// returned, or that is outside the global range, has exited. If only part
/// of the active lanes arrive (the others exited, or wait at a different
/// collective or source line), the operation throws hpp::RuntimeError
/// naming the intrinsic and the caller's file:line (the AMD rule, spec 3.2);
/// it never hangs. __activemask() is a collective too: it returns the lanes
/// that have not exited.
///
/// Masks are 64-bit (hpp's LaneMask on HIP). A 32-bit mask converts by zero
/// extension, so 0xffffffff on a 64-wide mvector means lanes 0-31 only, as a
/// real wave64 interprets it: __ballot_sync results are limited to those
/// lanes, and a lane 32-63 that calls a *_sync intrinsic with such a mask
/// (not containing itself) gets hpp::RuntimeError, as HIP asserts. Pass
/// ~0ull or __activemask() for a width-independent full mask.
///
/// A shuffle from a lane beyond a partial last mvector (a work-group size
/// that is not a multiple of the width) returns 0 (undefined on GPUs).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_WARP_H
#define HPP_CPU_WARP_H

#include "hpp/core/error.h"
#include "hpp/cpu/group_executor.h"
#include "hpp/cpu/settings.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace hpp {
namespace cpu {
namespace warp {

inline GroupExecutor &executorFor(const char *Name, const char *File,
                                  int Line) {
  GroupExecutor *E = GroupExecutor::current();
  if (!E)
    throw RuntimeError(Name, File, Line,
                       "warp intrinsic called outside device code");
  return *E;
}

inline std::string hexMask(unsigned long long M) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "0x%llx", M);
  return Buf;
}

/// Runs a collective for the calling lane; checks the lane is in its mask
/// and the shuffle width.
inline std::uint64_t collective(CollectiveKind Kind, const char *Name,
                                unsigned long long Mask, std::uint64_t Value,
                                int Arg, int Width, const char *File,
                                int Line) {
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
  CollectiveOp Op{Kind, Name, File, Line, Mask, Value, Arg, Width};
  return E.collective(Op);
}

template <class T> std::uint64_t toBits(const T &V) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                "warp shuffles take arithmetic values of at most 8 bytes");
  std::uint64_t B = 0;
  std::memcpy(&B, &V, sizeof(T));
  return B;
}
template <class T> T fromBits(std::uint64_t B) {
  T V;
  std::memcpy(&V, &B, sizeof(T));
  return V;
}

} // namespace warp
} // namespace cpu
} // namespace hpp

#define HPP_WARP_LOC const char *File = __builtin_FILE(), int Line = __builtin_LINE()

// The four shuffles differ only in name, kind and what the lane argument
// means (source lane, delta or xor mask): one row each.
#define HPP_CPU_SHUFFLE(Name, Kind, LaneArgType)                               \
  template <class T>                                                           \
  inline T Name(unsigned long long Mask, T Var, LaneArgType LaneArg,           \
                int Width = 0, HPP_WARP_LOC) {                                 \
    using namespace hpp::cpu;                                                  \
    return warp::fromBits<T>(warp::collective(                                 \
        CollectiveKind::Kind, #Name, Mask, warp::toBits(Var),                  \
        static_cast<int>(LaneArg), Width, File, Line));                        \
  }
HPP_CPU_SHUFFLE(__shfl_sync, Shfl, int)           // source lane
HPP_CPU_SHUFFLE(__shfl_up_sync, ShflUp, unsigned) // delta
HPP_CPU_SHUFFLE(__shfl_down_sync, ShflDown, unsigned) // delta
HPP_CPU_SHUFFLE(__shfl_xor_sync, ShflXor, int)    // xor lane mask
#undef HPP_CPU_SHUFFLE
inline unsigned long long __ballot_sync(unsigned long long Mask, int Predicate,
                                        HPP_WARP_LOC) {
  using namespace hpp::cpu;
  return warp::collective(CollectiveKind::Ballot, "__ballot_sync", Mask,
                          Predicate != 0, 0, 0, File, Line);
}
inline int __any_sync(unsigned long long Mask, int Predicate, HPP_WARP_LOC) {
  using namespace hpp::cpu;
  return static_cast<int>(warp::collective(CollectiveKind::Any, "__any_sync",
                                           Mask, Predicate != 0, 0, 0, File,
                                           Line));
}
inline int __all_sync(unsigned long long Mask, int Predicate, HPP_WARP_LOC) {
  using namespace hpp::cpu;
  return static_cast<int>(warp::collective(CollectiveKind::All, "__all_sync",
                                           Mask, Predicate != 0, 0, 0, File,
                                           Line));
}
inline unsigned long long __activemask(HPP_WARP_LOC) {
  using namespace hpp::cpu;
  return warp::collective(CollectiveKind::ActiveMask, "__activemask", ~0ull, 0,
                          0, 0, File, Line);
}
inline void __syncwarp(unsigned long long Mask = ~0ull, HPP_WARP_LOC) {
  using namespace hpp::cpu;
  warp::collective(CollectiveKind::SyncWarp, "__syncwarp", Mask, 0, 0, 0, File,
                   Line);
}

#undef HPP_WARP_LOC

inline int __popc(unsigned X) { return __builtin_popcount(X); }
inline int __popcll(unsigned long long X) { return __builtin_popcountll(X); }
inline int __ffs(int X) { return __builtin_ffs(X); }
inline int __ffsll(long long X) { return __builtin_ffsll(X); }
inline int __clz(int X) {
  return X == 0 ? 32 : __builtin_clz(static_cast<unsigned>(X));
}
inline int __clzll(long long X) {
  return X == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(X));
}

/// The simulated mvector width (CUDA's built-in warpSize).
#if defined(__HPP_REWRITE__)
extern const int warpSize;
#elif !defined(warpSize)
#define warpSize (static_cast<int>(::hpp::cpu::mvectorWidth()))
#endif

#endif // HPP_CPU_WARP_H
