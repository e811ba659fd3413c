//===- hpp/cpu/mask_collectives.h - Collectives of a mask's lanes ---------===//
//
// Part of hpp-rewrite. The fiber core of the device runtime's CPU backend
// (runtime/hpp/backend/cpu_warp.h), in the CPU reference runtime's
// GroupExecutor.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The members of GroupExecutor (hpp/cpu/group_executor.h) that complete
/// exact-mask collectives (CollectiveOp::Exact): the warp operations of the
/// device runtime's CPU backend, which follow CUDA's rule for the _sync
/// intrinsics: a collective is the operation of exactly the lanes of its
/// mask, which may be part of a warp in divergent code.
///  - An instance is the lanes that wait at the same operation (kind, file,
///    line) with the same mask. It completes once every lane of its mask
///    that exists (a partial last mvector has fewer) waits there. Lanes
///    outside the mask are not waited for, and every instance that can
///    complete does so in the same round: disjoint masks, at one call or at
///    several, are in flight at once.
///  - A lane of the mask that has exited is an error at once: CUDA reads
///    undefined values from it, and ROCm's _sync functions trap on a mask
///    that names an inactive lane. A lane of the mask that waits elsewhere
///    may still come, after another collective completes; it is an error
///    only when the group can go no further (every fiber blocked, none
///    released): reportStuckExact(), never a hang.
///  - A shuffle from a lane that exists but is not in the mask reads every
///    bit set (CUDA leaves the value undefined).
///  - ActiveMask (hpp::activeMask, hpp::warp32::activeMask) completes only
///    in a round where no other exact-mask collective of the mvector
///    completes, and returns the lanes of the caller's warp (its 32-lane
///    half for hpp::warp32) that wait at the same call: the lanes that
///    reach it before any of them goes on, that is, the lanes converged
///    there. Lanes that exited, or wait at another collective or barrier,
///    are not in it; a lane that reaches the call later, after another
///    collective lets it run, is, if it comes before the call completes.
/// GroupExecutor::resolve() hands a mvector here when one of its lanes
/// waits at an exact-mask collective. hpp/cpu/group_executor.h includes
/// this header at its end; include that one.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_MASK_COLLECTIVES_H
#define HPP_CPU_MASK_COLLECTIVES_H

#include "hpp/core/error.h"
#include "hpp/cpu/group_executor.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace hpp {
namespace cpu {

/// Whether a lane of [Begin, End) waits at an exact-mask collective.
inline bool GroupExecutor::anyExactBlocked(std::size_t Begin,
                                           std::size_t End) const {
  for (std::size_t Id = Begin; Id != End; ++Id)
    if (Pool->Items[Id].St == FiberPool::Item::Blocked &&
        Pool->Items[Id].Op.Exact)
      return true;
  return false;
}

/// The lanes [Begin, End) of a mvector, as bits from Begin.
inline unsigned long long GroupExecutor::existingLanes(std::size_t Begin,
                                                       std::size_t End) {
  const std::size_t N = End - Begin;
  return N >= 64 ? ~0ull : (1ull << N) - 1;
}

/// The lanes of [Begin, End) that wait at the instance \p Op belongs to
/// (bits from Begin).
inline unsigned long long GroupExecutor::lanesAt(const CollectiveOp &Op,
                                                 std::size_t Begin,
                                                 std::size_t End) const {
  unsigned long long Here = 0;
  for (std::size_t Id = Begin; Id != End; ++Id) {
    const FiberPool::Item &It = Pool->Items[Id];
    if (It.St == FiberPool::Item::Blocked && It.Op.Exact &&
        It.Op.Mask == Op.Mask && It.Op.Half == Op.Half && sameSite(It.Op, Op))
      Here |= 1ull << (Id - Begin);
  }
  return Here;
}

/// Completes the collective of the lanes \p Part of mvector [Begin, End).
inline void GroupExecutor::completeExact(std::size_t Begin, std::size_t End,
                                         unsigned long long Part) {
  auto &Items = Pool->Items;
  unsigned long long Pred = 0;
  for (unsigned L = 0; L != 64; ++L)
    if ((Part >> L & 1) && Items[Begin + L].Op.Value)
      Pred |= 1ull << L;
  for (unsigned L = 0; L != 64; ++L)
    if (Part >> L & 1)
      Items[Begin + L].Result =
          laneResult(Items[Begin + L].Op, L, Begin, End, Part, Pred);
  for (unsigned L = 0; L != 64; ++L)
    if (Part >> L & 1)
      Items[Begin + L].St = FiberPool::Item::Ready;
}

/// \p Op's mask as its caller wrote it: a 32-bit mask of the upper half of
/// a 64-lane mvector is shifted down, and the half named.
inline std::string GroupExecutor::maskText(const CollectiveOp &Op) {
  if (Op.Half && !(Op.Mask & 0xffffffffull))
    return hexText(Op.Mask >> 32) + " (of the 32-lane warp of lanes 32-63)";
  return hexText(Op.Mask);
}

/// \p Bits in hexadecimal: "0xffff".
inline std::string GroupExecutor::hexText(unsigned long long Bits) {
  static const char Digits[] = "0123456789abcdef";
  std::string S;
  do {
    S.insert(S.begin(), Digits[Bits & 15]);
    Bits >>= 4;
  } while (Bits);
  return "0x" + S;
}

/// The start of an exact-mask collective's errors: "the mask 0xffff names
/// lanes 8-15 of mvector 0 (width 32), which".
inline std::string GroupExecutor::exactMissing(const CollectiveOp &Op,
                                               std::size_t M,
                                               unsigned long long Lanes) const {
  const bool One = !(Lanes & (Lanes - 1));
  return "the mask " + maskText(Op) + (One ? " names lane " : " names lanes ") +
         lanes(Lanes) + " of mvector " + std::to_string(M) + " (width " +
         std::to_string(Width) + "), which ";
}

/// Completes every exact-mask collective of mvector \p M, [Begin, End),
/// that can complete; false if none can. Throws RuntimeError when a lane of
/// a waiting collective's mask has exited.
inline bool GroupExecutor::resolveExact(std::size_t M, std::size_t Begin,
                                        std::size_t End) {
  auto &Items = Pool->Items;
  const unsigned long long Exists = existingLanes(Begin, End);
  auto Waits = [&](std::size_t Id) {
    return Items[Id].St == FiberPool::Item::Blocked && Items[Id].Op.Exact;
  };
  unsigned long long Seen = 0; // Lanes of the instances looked at.
  bool Progress = false;
  for (std::size_t Id = Begin; Id != End; ++Id) {
    const CollectiveOp &Op = Items[Id].Op;
    if ((Seen >> (Id - Begin) & 1) || !Waits(Id) ||
        Op.Kind == CollectiveKind::ActiveMask)
      continue;
    const unsigned long long Need = Op.Mask & Exists;
    const unsigned long long Here = lanesAt(Op, Begin, End);
    Seen |= Here;
    unsigned long long Exited = 0, Past = 0;
    for (unsigned L = 0; L != 64; ++L)
      if ((Need >> L & 1) && Items[Begin + L].St == FiberPool::Item::Done) {
        Exited |= 1ull << L;
        if (pastRange(Begin + L))
          Past |= 1ull << L;
      }
    if (Past)
      missingLanes(Op, M, Here, Exited & ~Past, Past);
    if (Exited)
      throw RuntimeError(Op.Name, fileOf(Op), Op.Line,
                         exactMissing(Op, M, Exited) +
                             "exited without calling it (reached by lanes " +
                             lanes(Here) +
                             "); every lane of the mask must call it");
    if (Here != Need)
      continue;
    completeExact(Begin, End, Here);
    Progress = true;
  }
  if (Progress)
    return true;
  // __activemask: the lanes of the caller's warp waiting at the same call.
  for (std::size_t Id = Begin; Id != End; ++Id) {
    const unsigned Lane = static_cast<unsigned>(Id - Begin);
    const CollectiveOp &Op = Items[Id].Op;
    if ((Seen >> Lane & 1) || !Waits(Id) ||
        Op.Kind != CollectiveKind::ActiveMask)
      continue;
    const unsigned long long Scope =
        Op.Half ? (0xffffffffull << (Lane & ~31u)) & Exists : Exists;
    unsigned long long Here = 0;
    for (unsigned L = 0; L != 64; ++L)
      if ((Scope >> L & 1) && Waits(Begin + L) &&
          Items[Begin + L].Op.Half == Op.Half &&
          sameSite(Items[Begin + L].Op, Op))
        Here |= 1ull << L;
    Seen |= Here;
    completeExact(Begin, End, Here);
    Progress = true;
  }
  return Progress;
}

/// Called when no work-item can run and no collective can complete: the
/// first exact-mask collective some lane waits at never completes; throws
/// RuntimeError naming it, and where the first missing lane of its mask
/// waits instead. Returns when no lane waits at one.
inline void GroupExecutor::reportStuckExact() {
  auto &Items = Pool->Items;
  for (std::size_t Id = 0; Id != Size; ++Id) {
    const CollectiveOp &Op = Items[Id].Op;
    if (Items[Id].St != FiberPool::Item::Blocked || !Op.Exact ||
        Op.Kind == CollectiveKind::ActiveMask)
      continue;
    const std::size_t M = Id / Width;
    const std::size_t Begin = M * Width;
    const std::size_t End = Begin + Width < Size ? Begin + Width : Size;
    const unsigned long long Here = lanesAt(Op, Begin, End);
    const unsigned long long Missing =
        Op.Mask & existingLanes(Begin, End) & ~Here;
    unsigned First = 0;
    while (First != 63 && !(Missing >> First & 1))
      ++First;
    const FiberPool::Item &Other = Items[Begin + First];
    std::string Where;
    if (Other.St == FiberPool::Item::Parked)
      Where = Other.Park.Name + std::string(" at ") + Other.Park.File + ":" +
              std::to_string(Other.Park.Line);
    else if (sameSite(Other.Op, Op))
      Where = "the same call with the mask " + maskText(Other.Op);
    else
      Where = Other.Op.Name + std::string(" at ") + fileOf(Other.Op) + ":" +
              std::to_string(Other.Op.Line);
    throw RuntimeError(
        Op.Name, fileOf(Op), Op.Line,
        exactMissing(Op, M, Missing) +
            (Missing & (Missing - 1) ? "never reach it: lane "
                                     : "never reaches it: lane ") +
            std::to_string(First) + " waits at " + Where +
            " instead (reached by lanes " + lanes(Here) +
            "; no work-item of the work-group can go on); every lane of the "
            "mask must call it");
  }
}

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_MASK_COLLECTIVES_H
