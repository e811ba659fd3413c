//===- hpp/collectives.h - Work-group and warp collectives ----------------===//
//
// Part of hpp-rewrite. Device runtime, every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The collectives of device code the dialect defines (hpp/cpu/
/// collectives.h lists them; docs/dialect.md, "Work-group and warp
/// collectives"): groupReduce, groupInclusiveScan, groupExclusiveScan,
/// groupBroadcast, warpReduce, warpInclusiveScan, warpExclusiveScan,
/// warpBroadcast, warpBallotRank, warpBallotCount; and in hpp::warp32 the
/// warp forms over a 32-lane logical warp, which the rewriter calls in a
/// kernel that keeps 32-lane warps (docs/width-model.md). The order of the
/// combinations is hpp/core/collective_order.h's on every backend, so the
/// results are the same bits as the reference runtime's.
///
/// CPU backend: the reference runtime's implementation (hpp/cpu/
/// collective_ops.h) with the exact-mask rule of the backend's warp
/// operations; misuse is an hpp::RuntimeError at the caller's line.
///
/// CUDA and HIP (valid in the kernels hpp-rewrite outlines, whose
/// kernelIndex records the range, detail::LaunchGlobalSize):
///  - warp forms: the runtime's shuffles (warp.h) over the existing lanes
///    of the caller's warp (mask of those lanes, so a partial last warp is
///    legal on CUDA): reduce log2(W) + 1 shuffles, inclusive scan log2(W),
///    exclusive scan log2(W) + 1, broadcast 1, ballot rank and count one
///    ballot and a popcount; W = getWarpSize(), or 32 for hpp::warp32;
///  - group forms on a work-group whose work-items all lie in the range and
///    whose size is a multiple of 32: the 32-lane trees of each segment with
///    hpp::warp32 shuffles (so the same at wave32 and wave64), one lane per
///    segment writes its total to shared memory, __syncthreads, every
///    segment combines the totals with shuffles, __syncthreads (before the
///    slots can be written again): 2 barriers, reduce 11 shuffles, inclusive
///    scan 11, exclusive scan 12; broadcast 2 barriers and no shuffle;
///    shared memory 33 * sizeof(T) + 128 bytes per T used (static
///    __shared__, whatever the group size, up to 1024 work-items);
///  - a partial work-group (some work-items past the end of the range, or a
///    size not a multiple of 32): each segment gathers its present lanes'
///    values (32 shuffles) and folds them in registers, then the same two
///    barriers; slower, the same order.
/// T: trivially copyable, at most 8 bytes (it moves through shuffles).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_COLLECTIVES_H
#define HPP_RUNTIME_COLLECTIVES_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/collective_order.h"
#include "hpp/core/config.h"
#include "hpp/core/error.h"
#include "hpp/kernel_index.h"
#include "hpp/warp.h"

#include <cstddef>

#if defined(HPP_BACKEND_CPU)
#include "hpp/cpu/collective_calls.h"

// The group forms: hpp/cpu/collective_calls.h (the reference's calls).
namespace hpp {
HPP_CPU_WARP_COLLECTIVES(false, true)
namespace warp32 {
HPP_CPU_WARP_COLLECTIVES(true, true)
} // namespace warp32
} // namespace hpp

#else // CUDA and HIP

#include "hpp/backend/gpu_collectives.h"

#endif

#endif // HPP_RUNTIME_COLLECTIVES_H
