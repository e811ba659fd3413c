//===- cuda-decls/cooperative_groups/scan.h - Scans -------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's
/// <cooperative_groups/scan.h>: inclusive and exclusive prefix scans over a
/// tile or coalesced group, with an operation or with plus by default. The
/// operations are those of <cooperative_groups/reduce.h>, which this header
/// includes. Not for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_COOPERATIVE_GROUPS_SCAN_H
#define __HPP_CUDA_COOPERATIVE_GROUPS_SCAN_H

#include "reduce.h"

namespace cooperative_groups {
namespace __v1 {

/// \name Prefix scans: each thread gets `op` over the values of the threads
/// of lower rank (exclusive) or of lower and equal rank (inclusive)
/// @{
template <class TyGroup, class TyVal, class TyFn>
__device__ auto inclusive_scan(const TyGroup &group, TyVal &&val, TyFn &&op)
    -> decltype(op(val, val));
template <class TyGroup, class TyVal>
__device__
    typename std::remove_cv<typename std::remove_reference<TyVal>::type>::type
    inclusive_scan(const TyGroup &group, TyVal &&val);
template <class TyGroup, class TyVal, class TyFn>
__device__ auto exclusive_scan(const TyGroup &group, TyVal &&val, TyFn &&op)
    -> decltype(op(val, val));
template <class TyGroup, class TyVal>
__device__
    typename std::remove_cv<typename std::remove_reference<TyVal>::type>::type
    exclusive_scan(const TyGroup &group, TyVal &&val);
/// @}

} // namespace __v1
} // namespace cooperative_groups

#endif // __HPP_CUDA_COOPERATIVE_GROUPS_SCAN_H
