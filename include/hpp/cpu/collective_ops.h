//===- hpp/cpu/collective_ops.h - Group and warp collectives on the CPU ---===//
//
// Part of hpp-rewrite. CPU reference runtime, shared with the device
// runtime's CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The work-group and warp collectives (groupReduce, warpReduce & co.) on
/// the fibers of a GroupExecutor, as functions of hpp::cpu::coll that take
/// the name to report and the caller's file:line. hpp/cpu/collectives.h
/// spells them for the dialect, runtime/hpp/collectives.h for the device
/// runtime's CPU backend; the order is hpp/core/collective_order.h's.
///
/// Warp forms: the shuffles of hpp/cpu/warp_ops.h, named after the
/// collective, so a lane that does not call it (exited, or waiting
/// elsewhere) is reported at the caller's line as for any mvector
/// collective. \p Half: over the caller's 32-lane half (hpp::warp32).
/// \p Exact: the device runtime's exact-mask rule.
///
/// Group forms: each work-item leaves its value in the group's slots and
/// waits at the work-group barrier (named after the collective: work-items
/// waiting at another barrier, or parked, are reported there); the first
/// one to go on computes every result. A work-item of the range that exited
/// without calling it is an error at the caller's line; work-items past the
/// end of the range (a partial last work-group) are absent.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_COLLECTIVE_OPS_H
#define HPP_CPU_COLLECTIVE_OPS_H

#include "hpp/core/collective_order.h"
#include "hpp/core/error.h"
#include "hpp/core/error_text.h"
#include "hpp/cpu/group_executor.h"
#include "hpp/cpu/warp_ops.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hpp {
namespace cpu {
namespace coll {

using ::hpp::detail::GroupFold;
using ::hpp::detail::Maybe;

/// The lanes of the caller's mvector (or 32-lane half) as warpFold wants
/// them, moving values with the shuffles of hpp/cpu/warp_ops.h.
struct CpuLanes {
  const char *Name, *File;
  int Line;
  bool Half, Exact;
  unsigned long long Mask = ~0ull;
  int Lane = 0, Count = 0, W = 0;

  CpuLanes(const char *Name, const char *File, int Line, bool Half, bool Exact)
      : Name(Name), File(File), Line(Line), Half(Half), Exact(Exact) {
    GroupExecutor &E = warp::executorFor(Name, File, Line);
    const unsigned Width = E.mvectorWidth();
    const std::size_t Id = E.currentItem();
    W = Half ? 32 : static_cast<int>(Width);
    Lane = static_cast<int>(Id % static_cast<std::size_t>(W));
    const std::size_t Begin = Id - static_cast<std::size_t>(Lane);
    const std::size_t Left = E.groupSize() - Begin;
    Count = static_cast<int>(Left < std::size_t(W) ? Left : std::size_t(W));
    if (Half)
      Mask = 0xffffffffull << (E.currentLane() & ~31u);
  }
  int lane() const { return Lane; }
  int count() const { return Count; }
  int width() const { return W; }
  template <class T> T move(CollectiveKind Kind, T V, int Arg) {
    return warp::shuffle(Kind, Name, Mask, V, Arg, W, File, Line, Half, Exact);
  }
  template <class T> T down(T V, int Off) {
    return move(CollectiveKind::ShflDown, V, Off);
  }
  template <class T> T up(T V, int D) {
    return move(CollectiveKind::ShflUp, V, D);
  }
  template <class T> T idx(T V, int Src) {
    return move(CollectiveKind::Shfl, V, Src);
  }
  unsigned long long ballot(bool P) {
    return warp::ballot(Name, Mask, P, File, Line, Half, Exact);
  }
  /// The bits of the lanes below the caller (in the mvector's numbering).
  unsigned long long below() const {
    GroupExecutor &E = *GroupExecutor::current();
    unsigned L = E.currentLane();
    return L == 0 ? 0 : (~0ull >> (64 - L));
  }
};

/// warpReduce, warpInclusiveScan, warpExclusiveScan.
template <class T, class Op>
T warpFold(GroupFold Kind, const char *Name, T V, const T &Init, Op O,
           const char *File, int Line, bool Half, bool Exact) {
  CpuLanes P(Name, File, Line, Half, Exact);
  return ::hpp::detail::warpFold(P, V, Kind, Init, O);
}

/// warpBroadcast: \p V of lane \p Src of the caller's mvector (half).
template <class T>
T warpBroadcast(const char *Name, T V, int Src, const char *File, int Line,
                bool Half, bool Exact) {
  CpuLanes P(Name, File, Line, Half, Exact);
  if (Src < 0 || Src >= P.count())
    throw RuntimeError(
        Name, File, Line,
        "lane " + std::to_string(Src) + " is not a lane of " +
            (P.count() < P.width()
                 ? "this partial mvector (lanes 0-" +
                       std::to_string(P.count() - 1) + ")"
                 : "the mvector (width " + std::to_string(P.width()) + ")"));
  return P.idx(V, Src);
}

/// warpBallotRank (\p Rank) or warpBallotCount.
inline int warpBallot(const char *Name, bool Pred, bool Rank, const char *File,
                      int Line, bool Half, bool Exact) {
  CpuLanes P(Name, File, Line, Half, Exact);
  unsigned long long Bits = P.ballot(Pred);
  if (Rank)
    Bits &= P.below();
  return warp::popc(Bits);
}

/// A work-group's slots for the group collectives over T.
template <class T> struct GroupSlots : GroupState {
  std::vector<Maybe<T>> In;
  std::vector<T> Out;
  std::vector<char> Arrived;
  std::vector<long> Arg; ///< groupBroadcast's source, per work-item.
  std::uint64_t Gen = 0; ///< Completed collectives.
};
template <class T> inline const char GroupSlotsKey = 0;

/// Every result of \p Kind for the group's values \p In.
template <class T, class Op>
void foldAll(GroupSlots<T> &S, std::size_t Size, GroupFold Kind, const T &Init,
             Op &O) {
  using ::hpp::detail::SegmentLanes;
  const int Segs = static_cast<int>((Size + SegmentLanes - 1) / SegmentLanes);
  std::vector<Maybe<T>> Lane(Segs * SegmentLanes);
  Maybe<T> Tot[SegmentLanes];
  for (int Seg = 0; Seg < Segs; ++Seg) {
    Maybe<T> *L = Lane.data() + Seg * SegmentLanes;
    for (int I = 0; I < SegmentLanes; ++I) {
      std::size_t Id = std::size_t(Seg) * SegmentLanes + I;
      L[I] = Id < Size ? S.In[Id] : Maybe<T>{};
    }
    if (Kind == GroupFold::Reduce) {
      Tot[Seg] = ::hpp::detail::segDownTree(L, O);
    } else {
      ::hpp::detail::segKoggeStone(L, O);
      Tot[Seg] = L[SegmentLanes - 1];
    }
  }
  if (Kind == GroupFold::Reduce) {
    T R = ::hpp::detail::segDownTree(Tot, O).Value;
    for (std::size_t Id = 0; Id != Size; ++Id)
      S.Out[Id] = R;
    return;
  }
  ::hpp::detail::segKoggeStone(Tot, O);
  for (std::size_t Id = 0; Id != Size; ++Id) {
    const int Seg = int(Id / SegmentLanes), L = int(Id % SegmentLanes);
    const Maybe<T> *Ls = Lane.data() + Seg * SegmentLanes;
    S.Out[Id] = ::hpp::detail::scanResult(
        Seg > 0 ? Tot[Seg - 1] : Maybe<T>{}, Ls[L],
        L > 0 ? Ls[L - 1] : Maybe<T>{}, Kind == GroupFold::Exclusive, Init, O);
  }
}

/// Throws when a work-item of the range did not call the collective, or
/// (groupBroadcast) the source is not uniform or not present.
template <class T>
void checkArrivals(GroupExecutor &E, GroupSlots<T> &S, bool Broadcast,
                   const char *Name, const char *File, int Line) {
  const std::size_t Size = E.groupSize();
  auto Missing = [&](std::size_t I) {
    return !S.Arrived[I] && !E.pastRange(I);
  };
  std::size_t First = 0;
  while (First != Size && !Missing(First))
    ++First;
  if (First != Size)
    throw RuntimeError(
        Name, File, Line,
        "work-group collective reached by work-items " +
            ::hpp::detail::idRanges(
                Size, [&](std::size_t I) { return S.Arrived[I] != 0; }) +
            " only; work-items " + ::hpp::detail::idRanges(Size, Missing) +
            " exited without calling it (work-group of " +
            std::to_string(Size) +
            "); every work-item of the range must call it, uniformly");
  if (!Broadcast)
    return;
  long Src = -1;
  for (std::size_t I = 0; I != Size; ++I)
    if (S.Arrived[I]) {
      if (Src >= 0 && S.Arg[I] != Src)
        throw RuntimeError(Name, File, Line,
                           "work-items pass different sources (" +
                               std::to_string(Src) + " and " +
                               std::to_string(S.Arg[I]) +
                               "); the source must be uniform");
      Src = S.Arg[I];
    }
  if (Src < 0 || std::size_t(Src) >= Size || !S.Arrived[Src])
    throw RuntimeError(
        Name, File, Line,
        "the source work-item " + std::to_string(Src) +
            (Src < 0 || std::size_t(Src) >= Size
                 ? " is not in the work-group of " + std::to_string(Size)
                 : " lies past the end of the range (a "
                   "partial work-group) and has no value"));
}

/// groupReduce, the group scans and (\p Src >= 0 or \p Broadcast)
/// groupBroadcast for the calling work-item.
template <class T, class Op>
T groupFold(GroupFold Kind, bool Broadcast, const char *Name, T V, long Src,
            const T &Init, Op O, const char *File, int Line) {
  GroupExecutor &E = warp::executorFor(Name, File, Line);
  auto &S = E.groupState<GroupSlots<T>>(&GroupSlotsKey<T>, [] {
    return std::unique_ptr<GroupState>(new GroupSlots<T>());
  });
  const std::size_t Size = E.groupSize(), Id = E.currentItem();
  if (S.In.size() != Size) {
    S.In.assign(Size, Maybe<T>{});
    S.Out.assign(Size, T());
    S.Arrived.assign(Size, 0);
    S.Arg.assign(Size, -1);
  }
  S.In[Id] = Maybe<T>{V, true};
  S.Arrived[Id] = 1;
  S.Arg[Id] = Src;
  const std::uint64_t Mine = S.Gen;
  warp::groupBarrier(Name, File, Line);
  if (S.Gen == Mine) {
    // The first work-item to go on: every result, once.
    checkArrivals(E, S, Broadcast, Name, File, Line);
    for (std::size_t I = 0; I != Size; ++I)
      if (!S.Arrived[I])
        S.In[I] = Maybe<T>{};
    if (Broadcast)
      for (std::size_t I = 0; I != Size; ++I)
        S.Out[I] = S.In[std::size_t(Src)].Value;
    else
      foldAll(S, Size, Kind, Init, O);
    for (std::size_t I = 0; I != Size; ++I)
      S.Arrived[I] = 0;
    ++S.Gen;
  }
  return S.Out[Id];
}

} // namespace coll
} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_COLLECTIVE_OPS_H
