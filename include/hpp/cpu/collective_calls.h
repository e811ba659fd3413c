//===- hpp/cpu/collective_calls.h - The collectives' calls on the CPU -----===//
//
// Part of hpp-rewrite. CPU reference runtime, and the device runtime's CPU
// backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The calls of the work-group and warp collectives on the CPU, shared by
/// the reference runtime (hpp/cpu/collectives.h) and the device runtime's
/// CPU backend (runtime/hpp/collectives.h): the group forms, and
/// HPP_CPU_WARP_COLLECTIVES(Half, Runtime), which defines the warp forms
/// where it is expanded (Half: over the caller's 32-lane half, as
/// hpp::warp32's; Runtime: with the runtime backend's exact-mask rule).
/// Implementation: hpp/cpu/collective_ops.h.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_COLLECTIVE_CALLS_H
#define HPP_CPU_COLLECTIVE_CALLS_H

#include "hpp/core/error.h"
#include "hpp/cpu/collective_ops.h"

#include <cstddef>

/// The warp forms (see the file comment), in the namespace where expanded.
#define HPP_CPU_WARP_COLLECTIVES(Half, Runtime)                                \
  template <class T, class Op, detail::IfCombines<T, Op> = 0>                  \
  T warpReduce(T V, Op O, HPP_CALLER_LOCATION) {                               \
    return cpu::coll::warpFold(detail::GroupFold::Reduce, "warpReduce", V, V,  \
                               O, File, Line, Half, Runtime);                  \
  }                                                                            \
  template <class T, class Op, detail::IfCombines<T, Op> = 0>                  \
  T warpInclusiveScan(T V, Op O, HPP_CALLER_LOCATION) {                        \
    return cpu::coll::warpFold(detail::GroupFold::Inclusive,                   \
                               "warpInclusiveScan", V, V, O, File, Line, Half, \
                               Runtime);                                       \
  }                                                                            \
  template <class T, class Op, detail::IfCombines<T, Op> = 0>                  \
  T warpExclusiveScan(T V, T Init, Op O, HPP_CALLER_LOCATION) {                \
    return cpu::coll::warpFold(detail::GroupFold::Exclusive,                   \
                               "warpExclusiveScan", V, Init, O, File, Line,    \
                               Half, Runtime);                                 \
  }                                                                            \
  template <class T> T warpBroadcast(T V, int Src, HPP_CALLER_LOCATION) {      \
    return cpu::coll::warpBroadcast("warpBroadcast", V, Src, File, Line, Half, \
                                    Runtime);                                  \
  }                                                                            \
  inline int warpBallotRank(bool Pred, HPP_CALLER_LOCATION) {                  \
    return cpu::coll::warpBallot("warpBallotRank", Pred, true, File, Line,     \
                                 Half, Runtime);                               \
  }                                                                            \
  inline int warpBallotCount(bool Pred, HPP_CALLER_LOCATION) {                 \
    return cpu::coll::warpBallot("warpBallotCount", Pred, false, File, Line,   \
                                 Half, Runtime);                               \
  }

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

} // namespace hpp

#endif // HPP_CPU_COLLECTIVE_CALLS_H
