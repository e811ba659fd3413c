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
/// that have not exited (see below).
///
/// Masks: the mask's type says which lanes it names, so that ported CUDA
/// code gives the same results at width 32 and 64 (spec 4):
///  - a 32-bit mask (`0xffffffff`, `unsigned`) names the lanes of a 32-lane
///    CUDA warp: on a 64-wide mvector, lanes 32-63 form a second warp, and
///    the operation acts on the caller's half (its bit i is lane i of the
///    half), and the shuffles are CUDA's (PTX shfl.sync) within that warp:
///    the lane argument counts modulo 32 (PTX reads its bits 4:0), a source
///    lane modulo the width too, and a source outside the caller's
///    segment gives the caller its own value. So an up/down/xor offset of
///    32 (the last step of `for (k = 1; k <= 32; k *= 2)`) or 64 returns
///    the own value, as `__shfl_down_sync(0xffffffff, v, 32)` does on CUDA,
///    and 33 shifts by 1. A shuffle width above 32 is an hpp::RuntimeError
///    (CUDA requires width <= warpSize = 32). __ballot_sync returns the
///    half's bits as `unsigned`.
///  - a 64-bit mask (`~0ull`, `unsigned long long`) names the lanes of the
///    whole mvector; __ballot_sync returns `unsigned long long`.
/// Either way the whole mvector takes part in each collective (the AMD rule
/// below), and a lane not in its mask gets hpp::RuntimeError. __activemask()
/// is CUDA's: an `unsigned` with the bits of the caller's 32-lane warp (its
/// half of a 64-wide mvector) whose lanes have not exited.
///
/// A shuffle from a lane beyond a partial last mvector (a work-group size
/// that is not a multiple of the width) returns 0 (undefined on GPUs).
///
/// The operations themselves are hpp/cpu/warp_ops.h's, which the device
/// runtime's CPU backend shares; this header only spells them the CUDA way.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_WARP_H
#define HPP_CPU_WARP_H

#include "hpp/cpu/settings.h"
#include "hpp/cpu/warp_ops.h"

#include <algorithm>
#include <string>
#include <type_traits>

namespace hpp {
namespace cpu {
namespace warp {

/// A mask as ported code passes it: 32-bit masks name a lane of the
/// caller's 32-lane half, wider ones a lane of the mvector.
template <class M> constexpr bool isHalfMask() {
  static_assert(std::is_integral<M>::value, "a lane mask is an integer");
  return sizeof(M) <= 4;
}

/// What __ballot_sync returns for a mask of type M.
template <class M>
using BallotOf =
    typename std::conditional<isHalfMask<M>(), unsigned, Mask64>::type;

/// The first lane of the caller's 32-lane half (0 at width 32).
inline unsigned halfBase(const char *Name, const char *File, int Line) {
  return executorFor(Name, File, Line).currentLane() & ~31u;
}

/// \p Mask as a mask of the mvector.
template <class M>
Mask64 mvectorMask(M Mask, const char *Name, const char *File, int Line) {
  if (!isHalfMask<M>())
    return static_cast<Mask64>(Mask);
  return static_cast<Mask64>(static_cast<std::uint32_t>(Mask))
         << halfBase(Name, File, Line);
}

/// A shuffle with a mask of type M (see the file comment); \p Exact: of
/// exactly the lanes of the mask (the device runtime's CPU backend).
template <class M, class T>
T shuffleAs(CollectiveKind Kind, const char *Name, M Mask, T Var, int LaneArg,
            int Width, const char *File, int Line, bool Exact = false) {
  if (isHalfMask<M>()) {
    if (Width > 32)
      throw RuntimeError(
          Name, File, Line,
          "width " + std::to_string(Width) +
              " is wider than the 32-lane warp its 32-bit mask names (CUDA "
              "requires a width up to 32); use a 64-bit mask (~0ull) with a "
              "width-dependent width");
    if (Width <= 0)
      Width = static_cast<int>(
          std::min(32u, executorFor(Name, File, Line).mvectorWidth()));
    // PTX: bval[4:0] = b[4:0], so offset 32 is 0 (the own value).
    LaneArg &= 31;
  }
  return shuffle(Kind, Name, mvectorMask(Mask, Name, File, Line), Var, LaneArg,
                 Width, File, Line, isHalfMask<M>(), Exact);
}

} // namespace warp
} // namespace cpu
} // namespace hpp

#if defined(HPP_CPU_HIP_RENAMED)
// An oracle's simulation of a rename-only port on AMD: HIP's meaning of the
// same names (hpp/cpu/hip_renamed.h).
#include "hpp/cpu/hip_renamed.h"
#else
#define HPP_WARP_LOC                                                           \
  const char *File = __builtin_FILE(), int Line = __builtin_LINE()

// The four shuffles differ only in name, kind and what the lane argument
// means (source lane, delta or xor mask): one row each.
#define HPP_CPU_SHUFFLE(Name, Kind, LaneArgType)                               \
  template <class M, class T>                                                  \
  inline T Name(M Mask, T Var, LaneArgType LaneArg, int Width = 0,             \
                HPP_WARP_LOC) {                                                \
    return ::hpp::cpu::warp::shuffleAs(                                        \
        ::hpp::cpu::CollectiveKind::Kind, #Name, Mask, Var,                    \
        static_cast<int>(LaneArg), Width, File, Line);                         \
  }
HPP_CPU_SHUFFLE(__shfl_sync, Shfl, int)               // source lane
HPP_CPU_SHUFFLE(__shfl_up_sync, ShflUp, unsigned)     // delta
HPP_CPU_SHUFFLE(__shfl_down_sync, ShflDown, unsigned) // delta
HPP_CPU_SHUFFLE(__shfl_xor_sync, ShflXor, int)        // xor lane mask
#undef HPP_CPU_SHUFFLE
template <class M>
inline ::hpp::cpu::warp::BallotOf<M> __ballot_sync(M Mask, int Predicate,
                                                   HPP_WARP_LOC) {
  using namespace ::hpp::cpu::warp;
  Mask64 Bits =
      ballot("__ballot_sync", mvectorMask(Mask, "__ballot_sync", File, Line),
             Predicate, File, Line, isHalfMask<M>());
  if (isHalfMask<M>())
    Bits >>= halfBase("__ballot_sync", File, Line);
  return static_cast<BallotOf<M>>(Bits);
}
template <class M> inline int __any_sync(M Mask, int Predicate, HPP_WARP_LOC) {
  using namespace ::hpp::cpu::warp;
  return any("__any_sync", mvectorMask(Mask, "__any_sync", File, Line),
             Predicate, File, Line, isHalfMask<M>());
}
template <class M> inline int __all_sync(M Mask, int Predicate, HPP_WARP_LOC) {
  using namespace ::hpp::cpu::warp;
  return all("__all_sync", mvectorMask(Mask, "__all_sync", File, Line),
             Predicate, File, Line, isHalfMask<M>());
}
/// CUDA's: the not-exited lanes of the caller's 32-lane warp.
inline unsigned __activemask(HPP_WARP_LOC) {
  using namespace ::hpp::cpu::warp;
  Mask64 Bits = activeMask("__activemask", File, Line, /*Half=*/true);
  return static_cast<unsigned>(Bits >> halfBase("__activemask", File, Line));
}
template <class M = unsigned long long>
inline void __syncwarp(M Mask = ~0ull, HPP_WARP_LOC) {
  using namespace ::hpp::cpu::warp;
  syncWarp("__syncwarp", mvectorMask(Mask, "__syncwarp", File, Line), File,
           Line, isHalfMask<M>());
}

#undef HPP_WARP_LOC
#endif // HPP_CPU_HIP_RENAMED

// __popc, __popcll, __ffs, __ffsll, __clz, __clzll: hpp/cpu/warp_ops.h.

namespace hpp {
namespace cpu {
namespace detail {
/// The simulated width as the program starts (HPP_CPU_MVECTOR; 32 when the
/// setting is bad, which the first launch or MVECTOR_SIZE then reports at
/// its line).
inline int initialWarpSize() {
  try {
    return static_cast<int>(mvectorWidth());
  } catch (const RuntimeError &) {
    return 32;
  }
}
} // namespace detail
} // namespace cpu
} // namespace hpp

/// The simulated mvector width (CUDA's built-in warpSize), like
/// MVECTOR_SIZE (hpp/cpu/settings.h, mvectorSize()), as a variable, not a
/// macro, so that a member or a local of that name (cudaDeviceProp's
/// warpSize) is left alone: a constant expression when the width is
/// compiled in (-DHPP_CPU_MVECTOR), so that host code may pass it as a
/// template argument, and otherwise an `int` read from the environment
/// before main (the width never changes while a program runs). While
/// hpp-rewrite parses it is a constant too, so that the uses that need one
/// parse before hpp-host-warp-size lowers them to a width dispatch (or
/// rejects them); the tool finds its uses by its name
/// (lib/Analysis/WidthUses.cpp, hpp-warp-size).
#if defined(__HPP_REWRITE__)
constexpr int warpSize = ::hpp::cpu::CompiledMvectorWidth
                             ? int(::hpp::cpu::CompiledMvectorWidth)
                             : 32;
#elif defined(HPP_CPU_MVECTOR)
inline constexpr int warpSize = HPP_CPU_MVECTOR;
#else
inline const int warpSize = ::hpp::cpu::detail::initialWarpSize();
#endif

#endif // HPP_CPU_WARP_H
