//===- hpp/cpu/collectives.h - Work-group and warp collectives ------------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The collectives of device code (docs/dialect.md, "Work-group and warp
/// collectives"), in namespace hpp:
///
///   T   groupReduce(T v, Op op)
///   T   groupInclusiveScan(T v, Op op)
///   T   groupExclusiveScan(T v, T init, Op op)
///   T   groupBroadcast(T v, size_t localLinearId)
///   T   warpReduce(T v, Op op)
///   T   warpInclusiveScan(T v, Op op)
///   T   warpExclusiveScan(T v, T init, Op op)
///   T   warpBroadcast(T v, int lane)
///   int warpBallotRank(bool pred)   lanes below the caller with pred
///   int warpBallotCount(bool pred)  lanes with pred
///
/// The group forms are over the work-items of the caller's work-group
/// (every one of the range must call them, uniformly: they synchronize the
/// group as a barrier does); the warp forms over the MVECTOR_SIZE lanes of
/// the caller's mvector (every existing lane must call them). Op is a
/// function object (hpp::Plus, hpp::Minimum, hpp::Maximum of
/// hpp/core/algorithms.h, or the program's own, associative). T is
/// trivially copyable, at most 8 bytes for the warp forms. The order of
/// the combinations is hpp/core/collective_order.h's: the same bits on
/// every backend; the group forms' also at every mvector width.
///
/// Misuse throws hpp::RuntimeError at the caller's file:line (never a
/// hang): a call that part of the group or mvector does not reach, a
/// broadcast source that is not uniform (group) or does not exist.
/// Implementation: hpp/cpu/collective_ops.h.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_COLLECTIVES_H
#define HPP_CPU_COLLECTIVES_H

#include "hpp/core/error.h"
#include "hpp/cpu/collective_ops.h"

#include <cstddef>

namespace hpp {

/// The combination of \p V over the work-group (op order:
/// hpp/core/collective_order.h).
template <class T, class Op, detail::IfCombines<T, Op> = 0>
T groupReduce(T V, Op O, HPP_CALLER_LOCATION) {
  return cpu::coll::groupFold(detail::GroupFold::Reduce, false, "groupReduce",
                              V, -1, V, O, File, Line);
}
/// v of work-items 0 ... self (by local linear id), combined.
template <class T, class Op, detail::IfCombines<T, Op> = 0>
T groupInclusiveScan(T V, Op O, HPP_CALLER_LOCATION) {
  return cpu::coll::groupFold(detail::GroupFold::Inclusive, false,
                              "groupInclusiveScan", V, -1, V, O, File, Line);
}
/// init (+) v of work-items 0 ... self - 1 (init for work-item 0).
template <class T, class Op, detail::IfCombines<T, Op> = 0>
T groupExclusiveScan(T V, T Init, Op O, HPP_CALLER_LOCATION) {
  return cpu::coll::groupFold(detail::GroupFold::Exclusive, false,
                              "groupExclusiveScan", V, -1, Init, O, File, Line);
}
/// v of the work-item of local linear id \p Src (uniform).
template <class T> T groupBroadcast(T V, std::size_t Src, HPP_CALLER_LOCATION) {
  struct None {
    T operator()(const T &A, const T &) const { return A; }
  };
  return cpu::coll::groupFold(detail::GroupFold::Reduce, true, "groupBroadcast",
                              V, static_cast<long>(Src), V, None(), File, Line);
}

/// The combination of \p V over the caller's mvector.
template <class T, class Op, detail::IfCombines<T, Op> = 0>
T warpReduce(T V, Op O, HPP_CALLER_LOCATION) {
  return cpu::coll::warpFold(detail::GroupFold::Reduce, "warpReduce", V, V, O,
                             File, Line, false, false);
}
/// v of lanes 0 ... self, combined.
template <class T, class Op, detail::IfCombines<T, Op> = 0>
T warpInclusiveScan(T V, Op O, HPP_CALLER_LOCATION) {
  return cpu::coll::warpFold(detail::GroupFold::Inclusive, "warpInclusiveScan",
                             V, V, O, File, Line, false, false);
}
/// init (+) v of lanes 0 ... self - 1 (init for lane 0).
template <class T, class Op, detail::IfCombines<T, Op> = 0>
T warpExclusiveScan(T V, T Init, Op O, HPP_CALLER_LOCATION) {
  return cpu::coll::warpFold(detail::GroupFold::Exclusive, "warpExclusiveScan",
                             V, Init, O, File, Line, false, false);
}
/// v of lane \p Src of the caller's mvector.
template <class T> T warpBroadcast(T V, int Src, HPP_CALLER_LOCATION) {
  return cpu::coll::warpBroadcast("warpBroadcast", V, Src, File, Line, false,
                                  false);
}
/// The lanes below the caller whose \p Pred is true.
inline int warpBallotRank(bool Pred, HPP_CALLER_LOCATION) {
  return cpu::coll::warpBallot("warpBallotRank", Pred, true, File, Line, false,
                               false);
}
/// The lanes of the mvector whose \p Pred is true.
inline int warpBallotCount(bool Pred, HPP_CALLER_LOCATION) {
  return cpu::coll::warpBallot("warpBallotCount", Pred, false, File, Line,
                               false, false);
}

} // namespace hpp

#endif // HPP_CPU_COLLECTIVES_H
