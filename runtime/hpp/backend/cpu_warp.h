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
/// (hpp/cpu/warp_ops.h, the code behind the dialect's __shfl_sync & co.)
/// under the runtime's names, with CUDA's rule for who takes part (exact
/// masks, hpp/cpu/mask_collectives.h):
///  - a shuffle, ballot, vote or match is a collective of exactly the lanes
///    of its mask: it blocks the calling lane until every lane of the mask
///    reaches the same operation at the same source line with the same
///    mask, then computes the results from their values. Lanes outside the
///    mask are not waited for, so part of a warp may call it from divergent
///    code, and disjoint masks may be in flight at once (one call site with
///    a mask per group, or several);
///  - activeMask() returns the lanes of the caller's warp converged at the
///    call: those waiting at this same call once no other collective of the
///    mvector can complete (the lanes that reach it before any of them
///    goes on; not those that exited or wait elsewhere);
///  - a lane of the mask that has exited, a lane of the mask that can never
///    come (the work-group is stuck: every fiber blocked), a lane that is
///    not in its own mask (0xffffffff names lanes 0-31 only on a 64-wide
///    mvector, as on wave64), or a shuffle width that is not a power of two
///    up to the mvector width, throws hpp::RuntimeError with the CALLER's
///    file:line (default arguments), never hangs. A shuffle from a lane
///    outside the mask reads every bit set (CUDA: undefined).
/// hpp::warp32 (warp.h) is the same with a 32-bit mask (the reference
/// runtime's CUDA-spelled intrinsics, hpp/cpu/warp.h): each 32-lane half of
/// a 64-wide mvector is a logical warp, masks and ballots are the half's
/// bits, and the same checks apply (a width above 32 is one more error).
/// matchAnySync / matchAllSync take CUDA's value types (int, unsigned,
/// long, unsigned long, long long, unsigned long long, float, double) and
/// compare bits, as PTX's match.sync does.
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
                              Line, /*Half=*/false, /*Exact=*/true);           \
  }
HPP_CPU_SHUFFLES(HPP_CPU_SHUFFLE)
#undef HPP_CPU_SHUFFLE

/// Bit L set when lane L of \p Mask passes a non-zero \p Predicate.
inline LaneMask ballotSync(LaneMask Mask, int Predicate, HPP_CPU_CALLER) {
  return cpu::warp::ballot("hpp::ballotSync", Mask, Predicate, File, Line,
                           /*Half=*/false, /*Exact=*/true);
}
/// 1 if some lane of \p Mask passes a non-zero \p Predicate.
inline int anySync(LaneMask Mask, int Predicate, HPP_CPU_CALLER) {
  return cpu::warp::any("hpp::anySync", Mask, Predicate, File, Line,
                        /*Half=*/false, /*Exact=*/true);
}
/// 1 if every lane of \p Mask passes a non-zero \p Predicate.
inline int allSync(LaneMask Mask, int Predicate, HPP_CPU_CALLER) {
  return cpu::warp::all("hpp::allSync", Mask, Predicate, File, Line,
                        /*Half=*/false, /*Exact=*/true);
}
/// The lanes of the caller's mvector converged at this call (above).
inline LaneMask activeMask(HPP_CPU_CALLER) {
  return cpu::warp::activeMask("hpp::activeMask", File, Line, /*Half=*/false,
                               /*Exact=*/true);
}

// The matches, one row per value type of CUDA's (HPP_WARP_MATCH_TYPES).
#define HPP_CPU_MATCH(T)                                                       \
  /** The lanes of \p Mask whose \p Value equals the caller's. */              \
  inline LaneMask matchAnySync(LaneMask Mask, T Value, HPP_CPU_CALLER) {       \
    return cpu::warp::match(cpu::CollectiveKind::MatchAny,                     \
                            "hpp::matchAnySync", Mask, Value, File, Line,      \
                            /*Half=*/false);                                   \
  }                                                                            \
  /** \p Mask if every lane of it has the caller's \p Value, else 0; */        \
  /** *\p Pred says which. */                                                  \
  inline LaneMask matchAllSync(LaneMask Mask, T Value, int *Pred,              \
                               HPP_CPU_CALLER) {                               \
    const LaneMask Bits =                                                      \
        cpu::warp::match(cpu::CollectiveKind::MatchAll, "hpp::matchAllSync",   \
                         Mask, Value, File, Line, /*Half=*/false);             \
    *Pred = Bits != 0;                                                         \
    return Bits;                                                               \
  }
HPP_WARP_MATCH_TYPES(HPP_CPU_MATCH)
#undef HPP_CPU_MATCH

namespace detail {
/// hpp::warp32's matches: a match under the caller's 32-lane half's mask,
/// the result as the half's bits.
template <class T>
inline unsigned matchHalf(cpu::CollectiveKind Kind, const char *Name,
                          unsigned Mask, T Value, const char *File, int Line) {
  const cpu::warp::Mask64 Bits = cpu::warp::match(
      Kind, Name, cpu::warp::mvectorMask(Mask, Name, File, Line), Value, File,
      Line, /*Half=*/true);
  return static_cast<unsigned>(Bits >> cpu::warp::halfBase(Name, File, Line));
}
} // namespace detail

namespace warp32 {

// The reference runtime's shuffles with a 32-bit (`unsigned`) mask.
#define HPP_CPU_SHUFFLE32(Name, Kind, LaneArgType)                             \
  template <class T>                                                           \
  inline T Name(unsigned Mask, T Var, LaneArgType LaneArg, int Width = size,   \
                HPP_CPU_CALLER) {                                              \
    return cpu::warp::shuffleAs(                                               \
        cpu::CollectiveKind::Kind, "hpp::warp32::" #Name, Mask, Var,           \
        static_cast<int>(LaneArg), Width, File, Line, /*Exact=*/true);         \
  }
HPP_CPU_SHUFFLES(HPP_CPU_SHUFFLE32)
#undef HPP_CPU_SHUFFLE32

/// Bit i set when lane i of the caller's logical warp is in \p Mask and
/// passes a non-zero \p Predicate.
inline unsigned ballotSync(unsigned Mask, int Predicate, HPP_CPU_CALLER) {
  const char *Name = "hpp::warp32::ballotSync";
  const cpu::warp::Mask64 Bits =
      cpu::warp::ballot(Name, cpu::warp::mvectorMask(Mask, Name, File, Line),
                        Predicate, File, Line, /*Half=*/true, /*Exact=*/true);
  return static_cast<unsigned>(Bits >> cpu::warp::halfBase(Name, File, Line));
}
/// 1 if some lane of \p Mask passes a non-zero \p Predicate.
inline int anySync(unsigned Mask, int Predicate, HPP_CPU_CALLER) {
  const char *Name = "hpp::warp32::anySync";
  return cpu::warp::any(Name, cpu::warp::mvectorMask(Mask, Name, File, Line),
                        Predicate, File, Line, /*Half=*/true, /*Exact=*/true);
}
/// 1 if every lane of \p Mask passes a non-zero \p Predicate.
inline int allSync(unsigned Mask, int Predicate, HPP_CPU_CALLER) {
  const char *Name = "hpp::warp32::allSync";
  return cpu::warp::all(Name, cpu::warp::mvectorMask(Mask, Name, File, Line),
                        Predicate, File, Line, /*Half=*/true, /*Exact=*/true);
}
/// The lanes of the caller's logical warp converged at this call (above).
inline unsigned activeMask(HPP_CPU_CALLER) {
  const char *Name = "hpp::warp32::activeMask";
  const cpu::warp::Mask64 Bits =
      cpu::warp::activeMask(Name, File, Line, /*Half=*/true, /*Exact=*/true);
  return static_cast<unsigned>(Bits >> cpu::warp::halfBase(Name, File, Line));
}

#define HPP_CPU_MATCH32(T)                                                     \
  /** The lanes of \p Mask whose \p Value equals the caller's. */              \
  inline unsigned matchAnySync(unsigned Mask, T Value, HPP_CPU_CALLER) {       \
    return detail::matchHalf(cpu::CollectiveKind::MatchAny,                    \
                             "hpp::warp32::matchAnySync", Mask, Value, File,   \
                             Line);                                            \
  }                                                                            \
  /** \p Mask if every lane of it has the caller's \p Value, else 0; */        \
  /** *\p Pred says which. */                                                  \
  inline unsigned matchAllSync(unsigned Mask, T Value, int *Pred,              \
                               HPP_CPU_CALLER) {                               \
    const unsigned Bits = detail::matchHalf(cpu::CollectiveKind::MatchAll,     \
                                            "hpp::warp32::matchAllSync", Mask, \
                                            Value, File, Line);                \
    *Pred = Bits != 0;                                                         \
    return Bits;                                                               \
  }
HPP_WARP_MATCH_TYPES(HPP_CPU_MATCH32)
#undef HPP_CPU_MATCH32

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
