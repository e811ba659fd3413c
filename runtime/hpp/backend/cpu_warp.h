//===- hpp/backend/cpu_warp.h - Warp operations, CPU backend --------------===//
//
// Part of hpp-rewrite. Device runtime, CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The warp operations of hpp/warp.h's API on the CPU backend's simulated
/// mvector (HPP_CPU_MVECTOR = 32 or 64 lanes; the work-items are fibers,
/// backend/cpu_executor.h). They are the CPU reference runtime's operations
/// (hpp/cpu/warp_ops.h, the same code behind the dialect's __shfl_sync & co.)
/// under the runtime's names:
///  - shuffles, ballot and votes block the calling lane until every lane of
///    its mvector that has not exited reaches the same operation at the same
///    source line, then compute the results from all lanes' values;
///  - an operation that only part of the mvector reaches (the others exited
///    or wait elsewhere), a lane that is not in its own mask (0xffffffff
///    names lanes 0-31 only on a 64-wide mvector, as on wave64), or a
///    shuffle width that is not a power of two up to the mvector width,
///    throws hpp::RuntimeError with the CALLER's file:line (default
///    arguments), never hangs.
/// hpp::warp32 (warp.h) is the reference runtime's CUDA-spelled intrinsics
/// called with a 32-bit mask (hpp/cpu/warp.h): each 32-lane half of a
/// 64-wide mvector is a logical warp, ballots and masks are the half's bits,
/// and the same checks apply (a width above 32 is one more error), at the
/// caller's file:line. As every collective here, it needs the whole
/// mvector: at width 64, a call reached by one half only (the other half
/// exited or at a barrier) is reported as divergent, although each half is
/// a warp of its own on CUDA and on wave64.
/// popcMask, ffsMask and clzMask work on the whole 64-bit LaneMask. CUDA's
/// integer bit intrinsics (__popc, __ffs, __clz and their 64-bit forms),
/// which rewritten code keeps where they do not apply to a mask, come with
/// hpp/cpu/warp_ops.h.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_WARP_H
#define HPP_RUNTIME_BACKEND_CPU_WARP_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/cpu/warp.h"
#include "hpp/cpu/warp_ops.h"

namespace hpp {

/// The caller's file:line, reported by a failing warp operation.
#define HPP_CPU_CALLER                                                         \
  const char *File = __builtin_FILE(), int Line = __builtin_LINE()

// The four shuffles differ in name, kind and what the lane argument means:
// one row each, for hpp:: and for hpp::warp32::.
#define HPP_CPU_SHUFFLES(X)                                                    \
  X(shflSync, Shfl, int)              /* source lane */                        \
  X(shflUpSync, ShflUp, unsigned)     /* delta */                              \
  X(shflDownSync, ShflDown, unsigned) /* delta */                              \
  X(shflXorSync, ShflXor, int)        /* xor lane mask */

// Width 0 (the default) is the whole mvector.
#define HPP_CPU_SHUFFLE(Name, Kind, LaneArgType)                               \
  template <class T>                                                           \
  inline T Name(LaneMask Mask, T Var, LaneArgType LaneArg, int Width = 0,      \
                HPP_CPU_CALLER) {                                              \
    return cpu::warp::shuffle(cpu::CollectiveKind::Kind, "hpp::" #Name, Mask,  \
                              Var, static_cast<int>(LaneArg), Width, File,     \
                              Line);                                           \
  }
HPP_CPU_SHUFFLES(HPP_CPU_SHUFFLE)
#undef HPP_CPU_SHUFFLE

/// Bit L set when lane L of \p Mask passes a non-zero \p Predicate.
inline LaneMask ballotSync(LaneMask Mask, int Predicate, HPP_CPU_CALLER) {
  return cpu::warp::ballot("hpp::ballotSync", Mask, Predicate, File, Line);
}
/// 1 if some lane of \p Mask passes a non-zero \p Predicate.
inline int anySync(LaneMask Mask, int Predicate, HPP_CPU_CALLER) {
  return cpu::warp::any("hpp::anySync", Mask, Predicate, File, Line);
}
/// 1 if every lane of \p Mask passes a non-zero \p Predicate.
inline int allSync(LaneMask Mask, int Predicate, HPP_CPU_CALLER) {
  return cpu::warp::all("hpp::allSync", Mask, Predicate, File, Line);
}
/// The lanes of the caller's mvector that have not exited.
inline LaneMask activeMask(HPP_CPU_CALLER) {
  return cpu::warp::activeMask("hpp::activeMask", File, Line);
}

namespace warp32 {

// The reference runtime's shuffles with a 32-bit (`unsigned`) mask.
#define HPP_CPU_SHUFFLE32(Name, Kind, LaneArgType)                             \
  template <class T>                                                           \
  inline T Name(unsigned Mask, T Var, LaneArgType LaneArg, int Width = size,   \
                HPP_CPU_CALLER) {                                              \
    return cpu::warp::shuffleAs(cpu::CollectiveKind::Kind,                     \
                                "hpp::warp32::" #Name, Mask, Var,              \
                                static_cast<int>(LaneArg), Width, File, Line); \
  }
HPP_CPU_SHUFFLES(HPP_CPU_SHUFFLE32)
#undef HPP_CPU_SHUFFLE32

/// Bit i set when lane i of the caller's logical warp is in \p Mask and
/// passes a non-zero \p Predicate.
inline unsigned ballotSync(unsigned Mask, int Predicate, HPP_CPU_CALLER) {
  const char *Name = "hpp::warp32::ballotSync";
  const cpu::warp::Mask64 Bits =
      cpu::warp::ballot(Name, cpu::warp::mvectorMask(Mask, Name, File, Line),
                        Predicate, File, Line, /*Half=*/true);
  return static_cast<unsigned>(Bits >> cpu::warp::halfBase(Name, File, Line));
}
/// 1 if some lane of \p Mask passes a non-zero \p Predicate.
inline int anySync(unsigned Mask, int Predicate, HPP_CPU_CALLER) {
  const char *Name = "hpp::warp32::anySync";
  return cpu::warp::any(Name, cpu::warp::mvectorMask(Mask, Name, File, Line),
                        Predicate, File, Line, /*Half=*/true);
}
/// 1 if every lane of \p Mask passes a non-zero \p Predicate.
inline int allSync(unsigned Mask, int Predicate, HPP_CPU_CALLER) {
  const char *Name = "hpp::warp32::allSync";
  return cpu::warp::all(Name, cpu::warp::mvectorMask(Mask, Name, File, Line),
                        Predicate, File, Line, /*Half=*/true);
}
/// The lanes of the caller's logical warp that have not exited.
inline unsigned activeMask(HPP_CPU_CALLER) {
  const char *Name = "hpp::warp32::activeMask";
  const cpu::warp::Mask64 Bits =
      cpu::warp::activeMask(Name, File, Line, /*Half=*/true);
  return static_cast<unsigned>(Bits >> cpu::warp::halfBase(Name, File, Line));
}

} // namespace warp32

#undef HPP_CPU_SHUFFLES
#undef HPP_CPU_CALLER

/// Bits set in \p Mask (__popcll).
inline int popcMask(LaneMask Mask) { return cpu::warp::popc(Mask); }
/// 1 + the lowest set bit of \p Mask, 0 if none (__ffsll).
inline int ffsMask(LaneMask Mask) { return cpu::warp::ffs(Mask); }
/// Leading zero bits of \p Mask, 64 if none (__clzll).
inline int clzMask(LaneMask Mask) { return cpu::warp::clz(Mask); }

} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CPU_WARP_H
