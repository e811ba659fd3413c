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
/// The calls: hpp/cpu/collective_calls.h; the implementation:
/// hpp/cpu/collective_ops.h.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_COLLECTIVES_H
#define HPP_CPU_COLLECTIVES_H

#include "hpp/cpu/collective_calls.h"

namespace hpp {
// The group forms: hpp/cpu/collective_calls.h.
HPP_CPU_WARP_COLLECTIVES(false, false)
} // namespace hpp

#endif // HPP_CPU_COLLECTIVES_H
