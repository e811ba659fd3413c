//===- hpp/cpu/group_collectives.h - Completes blocked work-items ---------===//
//
// Part of hpp-rewrite. CPU reference runtime, and the fiber core of the
// device runtime's CPU backend (runtime/hpp/backend/cpu_executor.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The members of GroupExecutor (hpp/cpu/group_executor.h) that run when no
/// work-item of the group can run: waking parked work-items, completing the
/// collectives of each mvector (a 32-bit mask's operation per 32-lane half),
/// releasing the group barrier, and reporting divergent collectives and
/// deadlocks as hpp::RuntimeError; and the results of every collective
/// (laneResult), which the exact-mask collectives of
/// hpp/cpu/mask_collectives.h share. hpp/cpu/group_executor.h includes this
/// header at its end; include that one.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_GROUP_COLLECTIVES_H
#define HPP_CPU_GROUP_COLLECTIVES_H

#include "hpp/core/error.h"
#include "hpp/core/error_text.h"
#include "hpp/cpu/group_executor.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace hpp {
namespace cpu {

/// Makes the parked items whose wait is over ready; false if none is.
inline bool GroupExecutor::wakeParked() {
  bool Woken = false;
  for (std::size_t Id = 0; Id != Size; ++Id) {
    FiberPool::Item &It = Pool->Items[Id];
    if (It.St == FiberPool::Item::Parked &&
        It.Park.Released(It.Park.Object, It.Park.Token)) {
      It.St = FiberPool::Item::Ready;
      Woken = true;
    }
  }
  return Woken;
}

/// Every not-exited item is parked and none can be released.
[[noreturn]] inline void GroupExecutor::deadlock() {
  auto &Items = Pool->Items;
  std::size_t First = 0;
  while (Items[First].St != FiberPool::Item::Parked)
    ++First;
  const ParkSite &P = Items[First].Park;
  auto Same = [&](std::size_t I) {
    const ParkSite &Q = Items[I].Park;
    return Items[I].St == FiberPool::Item::Parked && Q.Object == P.Object &&
           Q.Line == P.Line && std::strcmp(Q.File, P.File) == 0;
  };
  std::string Others;
  for (std::size_t I = 0; I != Size; ++I)
    if (Items[I].St == FiberPool::Item::Parked && !Same(I)) {
      const ParkSite &Q = Items[I].Park;
      Others = "; work-item " + std::to_string(I) + " waits at " + Q.Name +
               " at " + Q.File + ":" + std::to_string(Q.Line);
      break;
    }
  throw RuntimeError(P.Name, P.File, P.Line,
                     detail::deadlockText(ranges(Size, Same),
                                          P.Describe(P.Object), Others,
                                          finishedItems(), Size));
}

/// "exited: a-b" for the work-items that returned from the body, and, for
/// a partial last work-group, the ones past the end of the range, which
/// never ran it: "exited: none; past the end of the range (20 of 16x2),
/// never running the body: 20-31".
inline std::string GroupExecutor::finishedItems() const {
  auto &Items = Pool->Items;
  auto Done = [&](std::size_t I) {
    return Items[I].St == FiberPool::Item::Done;
  };
  const std::string Past =
      ranges(Size, [&](std::size_t I) { return Done(I) && pastRange(I); });
  return detail::finishedText(
      ranges(Size, [&](std::size_t I) { return Done(I) && !pastRange(I); }),
      Past, Past == "none" ? "" : rangeShape());
}

/// Called when no work-item can run: completes the mvector collectives,
/// or, when there are none, the group barrier; throws when neither can go
/// on.
inline void GroupExecutor::resolveBlocked() {
  bool Progress = false;
  for (std::size_t M = 0; M * Width < Size; ++M)
    Progress |= resolve(M);
  if (Progress)
    return;
  // An exact-mask collective that no lane can complete any more
  // (hpp/cpu/mask_collectives.h) throws here.
  reportStuckExact();
  releaseBarrier();
}

/// "a-b,c" for the ids in [0, N) where \p In is true, "none" if none.
template <class Pred>
std::string GroupExecutor::ranges(std::size_t N, Pred In) {
  return detail::idRanges(N, In);
}
inline std::string GroupExecutor::lanes(unsigned long long Bits) {
  return ranges(64, [Bits](std::size_t L) { return (Bits >> L & 1) != 0; });
}

inline const char *GroupExecutor::fileOf(const CollectiveOp &Op) {
  return Op.File ? Op.File : "?";
}
/// The same operation at the same source location.
inline bool GroupExecutor::sameSite(const CollectiveOp &A,
                                    const CollectiveOp &B) {
  return A.Kind == B.Kind && A.Line == B.Line &&
         std::strcmp(fileOf(A), fileOf(B)) == 0;
}

[[noreturn]] inline void GroupExecutor::divergent(const CollectiveOp &Op,
                                                  std::size_t M,
                                                  const std::string &Why) {
  throw RuntimeError(Op.Name, fileOf(Op), Op.Line,
                     "divergent mvector collective in mvector " +
                         std::to_string(M) + " (width " +
                         std::to_string(Width) + "): " + Why +
                         "; every active lane must take part (AMD rule)");
}

/// The launch's global size and work-group size, "20 ... 32" in 1-D,
/// "20x18 ... 16x16" in 2-D, for the error about the lanes past the end of
/// the range (an index base is set).
inline std::string GroupExecutor::rangeShape() const {
  return detail::rangeShapeText(IndexBase->GlobalSize, IndexBase->LocalSize);
}

/// A collective of mvector \p M that lanes \p Blocked reached, while
/// lanes \p Returned returned from the body and lanes \p Past lie past the
/// end of the range (partial last work-group), so never ran it. The lanes
/// past the end get their own explanation and what to do about it.
[[noreturn]] inline void GroupExecutor::missingLanes(
    const CollectiveOp &Op, std::size_t M, unsigned long long Blocked,
    unsigned long long Returned, unsigned long long Past) {
  std::string Why = "reached by lanes " + lanes(Blocked) + " only; ";
  if (!Past)
    divergent(Op, M, Why + "lanes " + lanes(Returned) + " exited");
  if (Returned)
    Why += (Returned & (Returned - 1) ? "lanes " : "lane ") + lanes(Returned) +
           " exited, and ";
  throw RuntimeError(
      Op.Name, fileOf(Op), Op.Line,
      "incomplete mvector collective in mvector " + std::to_string(M) +
          " (width " + std::to_string(Width) + "): " + Why +
          (Past & (Past - 1) ? "lanes " : "lane ") + lanes(Past) +
          " of this mvector " + (Past & (Past - 1) ? "are" : "is") +
          " past the end of the range (" + rangeShape() +
          "): " + (Past & (Past - 1) ? "they never run" : "it never runs") +
          " the body; launch a global size rounded up to a "
          "multiple of the work-group size and guard the work, not the "
          "collective, with the real size (e.g. i < n), so that every lane "
          "reaches it");
}

/// Every not-exited work-item waits at a group barrier: releases them if
/// it is the same one, throws RuntimeError naming the first item's
/// otherwise (the group could never go on).
inline void GroupExecutor::releaseBarrier() {
  auto &Items = Pool->Items;
  auto Waits = [&](std::size_t Id) {
    return Items[Id].St == FiberPool::Item::Blocked;
  };
  std::size_t First = 0;
  while (First != Size && !Waits(First))
    ++First;
  if (First == Size)
    return;
  const CollectiveOp &Op = Items[First].Op;
  for (std::size_t Id = 0; Id != Size; ++Id)
    if (Items[Id].St == FiberPool::Item::Parked) {
      const ParkSite &P = Items[Id].Park;
      throw RuntimeError(
          Op.Name, fileOf(Op), Op.Line,
          "work-group barrier reached while work-item " + std::to_string(Id) +
              " waits at " + P.Name + " at " + P.File + ":" +
              std::to_string(P.Line) +
              "; every work-item that has not exited must reach the same "
              "barrier");
    }
  for (std::size_t Id = First; Id != Size; ++Id) {
    if (!Waits(Id) || sameSite(Items[Id].Op, Op))
      continue;
    const CollectiveOp &Other = Items[Id].Op;
    throw RuntimeError(
        Op.Name, fileOf(Op), Op.Line,
        "work-group barrier reached by work-items " +
            ranges(Size,
                   [&](std::size_t I) {
                     return Waits(I) && sameSite(Items[I].Op, Op);
                   }) +
            " only; work-item " + std::to_string(Id) + " waits at " +
            Other.Name + " at " + fileOf(Other) + ":" +
            std::to_string(Other.Line) + " (work-group of " +
            std::to_string(Size) + ", " + finishedItems() +
            "); every work-item that has not exited must reach the same "
            "barrier");
  }
  for (std::size_t Id = First; Id != Size; ++Id)
    if (Waits(Id)) {
      Items[Id].Result = 0;
      Items[Id].St = FiberPool::Item::Ready;
    }
}

/// Completes the mvector collective the lanes of mvector \p M wait at;
/// false when there is none (every lane exited or waits at the group
/// barrier). Throws RuntimeError when the lanes wait at different
/// operations or some exited. A mvector with a lane at an exact-mask
/// collective follows that one's rules instead (resolveExact).
inline bool GroupExecutor::resolve(std::size_t M) {
  std::size_t Begin = M * Width;
  std::size_t End = Begin + Width < Size ? Begin + Width : Size;
  // Exact-mask collectives (the device runtime's): their own rules.
  if (anyExactBlocked(Begin, End))
    return resolveExact(M, Begin, End);
  // Operations with 32-bit masks: each 32-lane half of a wider mvector is
  // a warp of its own, as on CUDA (and as hpp::warp32 runs on wave64).
  if (Width > 32)
    for (std::size_t H = Begin; H < End; H += 32) {
      std::size_t HEnd = H + 32 < End ? H + 32 : End;
      const CollectiveOp *Op = firstBlocked(H, HEnd);
      if (Op && Op->Half && resolveRange(M, Begin, End, H, HEnd))
        return true;
    }
  return resolveRange(M, Begin, End, Begin, End);
}

/// The operation the first blocked work-item of [Begin, End) waits at.
inline const CollectiveOp *GroupExecutor::firstBlocked(std::size_t Begin,
                                                       std::size_t End) const {
  for (std::size_t Id = Begin; Id != End; ++Id)
    if (Pool->Items[Id].St == FiberPool::Item::Blocked)
      return &Pool->Items[Id].Op;
  return nullptr;
}

/// The lane a shuffle of lane \p Lane reads (its own lane where the source
/// leaves its segment), counting from the mvector's first lane.
inline long GroupExecutor::shuffleSource(const CollectiveOp &Op,
                                         unsigned Lane) const {
  unsigned W = static_cast<unsigned>(Op.Width);
  unsigned SegBase = Lane & ~(W - 1);
  switch (Op.Kind) {
  case CollectiveKind::Shfl:
    return SegBase + (static_cast<unsigned>(Op.Arg) & (W - 1));
  case CollectiveKind::ShflUp:
    return (Lane - SegBase) >= static_cast<unsigned>(Op.Arg)
               ? static_cast<long>(Lane) - Op.Arg
               : static_cast<long>(Lane);
  case CollectiveKind::ShflDown:
    // 64-bit: a delta near 2^32 must not wrap into the segment.
    return std::uint64_t(Lane - SegBase) + static_cast<unsigned>(Op.Arg) < W
               ? static_cast<long>(Lane) + Op.Arg
               : static_cast<long>(Lane);
  case CollectiveKind::ShflXor: {
    unsigned S = Lane ^ static_cast<unsigned>(Op.Arg);
    return S >= SegBase + W || S >= Width ? Lane : S;
  }
  default:
    return -1;
  }
}

/// The result of lane \p Lane of mvector [\p Begin, \p End) at \p Op,
/// which the lanes \p Part take part in (bits from \p Begin), \p Pred
/// those of them whose value is non-zero.
inline std::uint64_t GroupExecutor::laneResult(const CollectiveOp &Op,
                                               unsigned Lane, std::size_t Begin,
                                               std::size_t End,
                                               unsigned long long Part,
                                               unsigned long long Pred) const {
  auto &Items = Pool->Items;
  const unsigned long long Lanes = Part & Op.Mask;
  switch (Op.Kind) {
  case CollectiveKind::Ballot:
    return Pred & Op.Mask;
  case CollectiveKind::Any:
    return (Pred & Op.Mask) != 0;
  case CollectiveKind::All:
    return (Lanes & ~Pred) == 0;
  case CollectiveKind::ActiveMask:
    return Part;
  case CollectiveKind::MatchAny:
  case CollectiveKind::MatchAll: {
    // Bitwise, as PTX's match.sync (.b32 / .b64) compares.
    unsigned long long Same = 0;
    for (unsigned L = 0; L != 64; ++L)
      if ((Lanes >> L & 1) && Items[Begin + L].Op.Value == Op.Value)
        Same |= 1ull << L;
    if (Op.Kind == CollectiveKind::MatchAny)
      return Same;
    return Same == Lanes ? Op.Mask : 0;
  }
  case CollectiveKind::SyncWarp:
  case CollectiveKind::GroupBarrier: // Not mixed with the others here.
    return 0;
  default:
    break;
  }
  const long Src = shuffleSource(Op, Lane);
  // A lane beyond a partial mvector does not exist: undefined on a GPU, 0
  // here. A lane that exists but takes no part (not in an exact mask):
  // undefined on CUDA; every bit set here, as the CPU backend poisons
  // memory nobody wrote (NaN as a float, -1 as a signed integer).
  const std::size_t SrcId = Begin + static_cast<std::size_t>(Src);
  if (SrcId >= End)
    return 0;
  if (!(Part >> Src & 1))
    return ~std::uint64_t(0);
  return Items[SrcId].Op.Value;
}

/// resolve() for the lanes [RBegin, REnd) of mvector \p M, [Begin, End):
/// the whole mvector, or one 32-lane half. Lanes count from \p Begin.
inline bool GroupExecutor::resolveRange(std::size_t M, std::size_t Begin,
                                        std::size_t End, std::size_t RBegin,
                                        std::size_t REnd) {
  auto &Items = Pool->Items;
  // Exited: lanes that finished, of which Past never ran the body.
  unsigned long long Blocked = 0, Exited = 0, Past = 0;
  const CollectiveOp *First = nullptr;
  for (std::size_t Id = RBegin; Id != REnd; ++Id) {
    unsigned Lane = static_cast<unsigned>(Id - Begin);
    if (Items[Id].St == FiberPool::Item::Done) {
      Exited |= 1ull << Lane;
      if (pastRange(Id))
        Past |= 1ull << Lane;
    } else if (Items[Id].St == FiberPool::Item::Blocked) {
      Blocked |= 1ull << Lane;
      if (!First)
        First = &Items[Id].Op;
    }
  }
  if (!Blocked)
    return false;
  bool AllAtBarrier = true;
  for (std::size_t Id = RBegin; Id != REnd; ++Id)
    if (Items[Id].St == FiberPool::Item::Blocked)
      AllAtBarrier &= Items[Id].Op.Kind == CollectiveKind::GroupBarrier;
  // The group barrier waits for the whole group: releaseBarrier().
  if (AllAtBarrier)
    return false;
  for (std::size_t Id = RBegin; Id != REnd; ++Id)
    if (Items[Id].St == FiberPool::Item::Parked) {
      const ParkSite &P = Items[Id].Park;
      divergent(*First, M,
                "lane " + std::to_string(Id - Begin) + " waits at " + P.Name +
                    " at " + P.File + ":" + std::to_string(P.Line) +
                    " instead");
    }
  for (std::size_t Id = RBegin; Id != REnd; ++Id) {
    if (Items[Id].St != FiberPool::Item::Blocked)
      continue;
    const CollectiveOp &Op = Items[Id].Op;
    if (!sameSite(Op, *First))
      divergent(*First, M,
                "lane " + std::to_string(Id - Begin) + " waits at " + Op.Name +
                    " at " + fileOf(Op) + ":" + std::to_string(Op.Line) +
                    " instead");
  }
  // __activemask reports the lanes that have not exited; every other
  // operation needs them all.
  if (Exited && First->Kind != CollectiveKind::ActiveMask)
    missingLanes(*First, M, Blocked, Exited & ~Past, Past);
  // Predicates of all participants.
  unsigned long long Pred = 0;
  for (std::size_t Id = RBegin; Id != REnd; ++Id)
    if (Items[Id].Op.Value)
      Pred |= 1ull << (Id - Begin);
  for (std::size_t Id = RBegin; Id != REnd; ++Id)
    Items[Id].Result =
        laneResult(Items[Id].Op, static_cast<unsigned>(Id - Begin), Begin, End,
                   Blocked, Pred);
  // Only the lanes that waited: an exited lane (__activemask) stays done.
  for (std::size_t Id = RBegin; Id != REnd; ++Id)
    if (Items[Id].St == FiberPool::Item::Blocked)
      Items[Id].St = FiberPool::Item::Ready;
  return true;
}

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_GROUP_COLLECTIVES_H
