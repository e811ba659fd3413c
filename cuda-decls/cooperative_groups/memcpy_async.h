//===- cuda-decls/cooperative_groups/memcpy_async.h - Copies ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's
/// <cooperative_groups/memcpy_async.h>: a copy that a whole group issues
/// together, and the waits for the copies a group issued. Not for
/// compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define __HPP_CUDA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H

#include "../cooperative_groups.h"

namespace cooperative_groups {
namespace __v1 {

/// \name Asynchronous copies by a group, and waiting for them
/// `count` is in bytes (an integer, or a cuda::aligned_size_t); the second
/// form copies min(dstLayout, srcLayout) elements. wait() waits for every
/// copy the group issued, wait_prior<N>() for all but the last N.
/// @{
template <class TyGroup, class TyElem, class TySizeT>
__device__ void memcpy_async(const TyGroup &group, TyElem *__restrict__ dst,
                             const TyElem *__restrict__ src,
                             const TySizeT &count);
template <class TyGroup, class TyElem, class DstLayout, class SrcLayout>
__device__ void memcpy_async(const TyGroup &group, TyElem *__restrict__ dst,
                             const DstLayout &dstLayout,
                             const TyElem *__restrict__ src,
                             const SrcLayout &srcLayout);
template <class TyGroup> __device__ void wait(const TyGroup &group);
template <unsigned int NumStages, class TyGroup>
__device__ void wait_prior(const TyGroup &group);
/// @}

} // namespace __v1
} // namespace cooperative_groups

#endif // __HPP_CUDA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
