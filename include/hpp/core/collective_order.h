//===- hpp/core/collective_order.h - The order the collectives fold in ----===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime and the device
// runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The combination order of the work-group and warp collectives
/// (groupReduce, groupInclusiveScan, groupExclusiveScan, warpReduce,
/// warpInclusiveScan, warpExclusiveScan; docs/dialect.md, "Work-group and
/// warp collectives"), written once and run by every backend, so that a
/// floating-point result is the same bits everywhere. `a (+) b` is
/// Maybe::combine (hpp/core/algorithm_order.h): an absent operand leaves
/// the other.
///
/// Work-group (independent of the mvector width): the work-items are cut
/// by local linear id into segments of 32 (SegmentLanes); work-item i is
/// lane l = i % 32 of segment s = i / 32. A work-item past the end of the
/// range (partial last work-group) or past the group size is absent.
///  - reduce: each segment's down-tree v[l] = v[l] (+) v[l + o], o = 16, 8,
///    4, 2, 1, read at lane 0 (segDownTree); the segment totals, padded to
///    32 with absent values, the same way; the result is that value.
///  - scans: each segment's Kogge-Stone steps v[l] = v[l - d] (+) v[l],
///    d = 1, 2, 4, 8, 16 (segKoggeStone) give the lane prefix K[l]; the
///    segment totals K[31] are scanned the same way, and segPrefix(s) is
///    the scanned total of segment s - 1 (absent for s = 0). Inclusive:
///    segPrefix(s) (+) K[l]. Exclusive: init (+) (segPrefix(s) (+) K[l-1])
///    (K[-1] absent; init alone when both are absent).
/// Warp (over the W = MVECTOR_SIZE lanes of the caller's mvector, so
/// width-dependent by meaning; the existing lanes of a partial last
/// mvector take part, the others are absent): reduce is the down-tree with
/// o = W/2, ..., 1 read at lane 0; inclusive scan the Kogge-Stone steps
/// d = 1, ..., W/2; exclusive scan lane 0: init, lane l: init (+) K[l-1].
/// Ops must be associative (and commutative for reduce).
///
/// warpCollective() runs the warp forms on a Lanes policy that moves the
/// values (the CPU runtimes' collectives, the GPU shuffles): the same code,
/// so the same order, on every backend.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_COLLECTIVE_ORDER_H
#define HPP_CORE_COLLECTIVE_ORDER_H

#include "hpp/core/algorithm_order.h"
#include "hpp/core/config.h"

#include <type_traits>

namespace hpp {
namespace detail {

/// In place: the down-tree of 32 values, o = 16 ... 1; returns V[0].
template <class T, class Op> HPP_HD Maybe<T> segDownTree(Maybe<T> *V, Op &O) {
  for (int Off = SegmentLanes / 2; Off >= 1; Off /= 2)
    for (int L = 0; L < Off; ++L)
      V[L] = Maybe<T>::combine(V[L], V[L + Off], O);
  return V[0];
}

/// In place: the Kogge-Stone inclusive scan of 32 values, d = 1 ... 16
/// (from the top down, so each step reads the previous step's values).
template <class T, class Op> HPP_HD void segKoggeStone(Maybe<T> *V, Op &O) {
  for (int D = 1; D < SegmentLanes; D *= 2)
    for (int L = SegmentLanes - 1; L >= D; --L)
      V[L] = Maybe<T>::combine(V[L - D], V[L], O);
}

/// What a scan gives a work-item from its segment's prefixes.
template <class T, class Op>
HPP_HD T scanResult(const Maybe<T> &SegPrefix, const Maybe<T> &LaneIncl,
                    const Maybe<T> &LaneExcl, bool Exclusive, const T &Init,
                    Op &O) {
  if (!Exclusive)
    return Maybe<T>::combine(SegPrefix, LaneIncl, O).Value;
  Maybe<T> Before = Maybe<T>::combine(SegPrefix, LaneExcl, O);
  return Before.Present ? O(Init, Before.Value) : Init;
}

/// The collectives take part in overload resolution only for an Op that
/// combines two T: a program's own `warpReduce(size_t, size_t)` beside
/// `using namespace hpp;` stays the one its calls mean.
template <class T, class Op>
using IfCombines =
    std::enable_if_t<std::is_invocable_r<T, Op &, const T &, const T &>::value,
                     int>;

/// What a collective computes.
enum class GroupFold { Reduce, Inclusive, Exclusive };

/// The warp forms over a Lanes policy \p P, which provides: int lane(),
/// count() (the existing lanes, from lane 0), width() (a power of two);
/// T down(T, int Off), up(T, int Delta), idx(T, int SrcLane): the value
/// of lane + Off, lane - Delta, SrcLane (any value where that lane does
/// not exist: never used).
template <class T, class Op, class Lanes>
HPP_HD T warpFold(Lanes &P, T V, GroupFold Kind, const T &Init, Op &O) {
  const int Lane = P.lane(), Count = P.count(), W = P.width();
  if (Kind == GroupFold::Reduce) {
    for (int Off = W / 2; Off >= 1; Off /= 2) {
      T Other = P.down(V, Off);
      if (Lane + Off < Count)
        V = O(V, Other);
    }
    return P.idx(V, 0);
  }
  for (int D = 1; D < W; D *= 2) {
    T Other = P.up(V, D);
    if (Lane >= D)
      V = O(Other, V);
  }
  if (Kind == GroupFold::Inclusive)
    return V;
  T Below = P.up(V, 1);
  return Lane > 0 ? O(Init, Below) : Init;
}

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_COLLECTIVE_ORDER_H
