//===- cuda-decls/__hpp_cuda_warp_functions.h - Warps -----------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declarations of CUDA's warp intrinsics: the
/// shuffles, votes, matches and reductions of a warp's active lanes, with
/// CUDA's overload sets and the `width = warpSize` default. All
/// `__device__`. Not for compiling.
///
/// The pre-CUDA 9 forms without a mask (__shfl, __shfl_down, __ballot,
/// __any, __all, ...) are declared and marked deprecated, as CUDA's host
/// pass declares them: they parse, so that the tool can refuse them with a
/// located diagnostic. nvcc rejects them in device code for sm_70 and
/// later, so for every architecture CUDA 13 supports.
///
/// The __half and __half2 shuffles are in <cuda_fp16.h>, as in CUDA.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_WARP_FUNCTIONS_H
#define __HPP_CUDA_WARP_FUNCTIONS_H

#include "device_launch_parameters.h"

/// \name Warp synchronization and votes
/// @{
__device__ void __syncwarp(unsigned int mask = 0xFFFFFFFF);
__device__ unsigned int __activemask(void);
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ int __uni_sync(unsigned int mask, int predicate);
__device__ unsigned int __fns(unsigned int mask, unsigned int base, int offset);
__device__ void __barrier_sync(unsigned int id);
__device__ void __barrier_sync_count(unsigned int id, unsigned int count);
/// @}

/// \name Shuffles
/// __shfl_sync reads lane srcLane; _up_sync lane - delta; _down_sync lane +
/// delta; _xor_sync lane ^ laneMask; all within segments of `width` lanes.
/// One overload per type CUDA has: int, unsigned int, long, unsigned long,
/// long long, unsigned long long, float, double.
/// @{
#define __HPP_CUDA_SHFL_SYNC(T)                                                \
  __device__ T __shfl_sync(unsigned int mask, T var, int srcLane,              \
                           int width = warpSize);                              \
  __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta,    \
                              int width = warpSize);                           \
  __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta,  \
                                int width = warpSize);                         \
  __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask,         \
                               int width = warpSize);
__HPP_CUDA_SHFL_SYNC(int)
__HPP_CUDA_SHFL_SYNC(unsigned int)
__HPP_CUDA_SHFL_SYNC(long)
__HPP_CUDA_SHFL_SYNC(unsigned long)
__HPP_CUDA_SHFL_SYNC(long long)
__HPP_CUDA_SHFL_SYNC(unsigned long long)
__HPP_CUDA_SHFL_SYNC(float)
__HPP_CUDA_SHFL_SYNC(double)
#undef __HPP_CUDA_SHFL_SYNC
/// @}

/// \name Matches (sm_70): the lanes whose value equals this lane's
/// @{
#define __HPP_CUDA_MATCH(T)                                                    \
  __device__ unsigned int __match_any_sync(unsigned int mask, T value);        \
  __device__ unsigned int __match_all_sync(unsigned int mask, T value,         \
                                           int *pred);
__HPP_CUDA_MATCH(int)
__HPP_CUDA_MATCH(unsigned int)
__HPP_CUDA_MATCH(long)
__HPP_CUDA_MATCH(unsigned long)
__HPP_CUDA_MATCH(long long)
__HPP_CUDA_MATCH(unsigned long long)
__HPP_CUDA_MATCH(float)
__HPP_CUDA_MATCH(double)
#undef __HPP_CUDA_MATCH
/// @}

/// \name Reductions (sm_80): add, min and max of int or unsigned int;
/// and, or and xor of unsigned int
/// @{
__device__ unsigned int __reduce_add_sync(unsigned int mask,
                                          unsigned int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask,
                                          unsigned int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask,
                                          unsigned int value);
__device__ int __reduce_add_sync(unsigned int mask, int value);
__device__ int __reduce_min_sync(unsigned int mask, int value);
__device__ int __reduce_max_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask,
                                          unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask,
                                          unsigned int value);
/// @}

/// \name The deprecated forms without a mask
/// The whole warp implicitly; CUDA 9 replaced them with the _sync forms.
/// @{
#define __HPP_CUDA_WARP_DEPRECATED(Name)                                       \
  __attribute__((deprecated(#Name "() is deprecated in favor of " #Name        \
                                  "_sync() and is not valid on sm_70 and "     \
                                  "later")))
#define __HPP_CUDA_SHFL_OLD(T)                                                 \
  __device__ __HPP_CUDA_WARP_DEPRECATED(__shfl)                                \
  T __shfl(T var, int srcLane, int width = warpSize);                          \
  __device__ __HPP_CUDA_WARP_DEPRECATED(__shfl_up)                             \
  T __shfl_up(T var, unsigned int delta, int width = warpSize);                \
  __device__ __HPP_CUDA_WARP_DEPRECATED(__shfl_down)                           \
  T __shfl_down(T var, unsigned int delta, int width = warpSize);              \
  __device__ __HPP_CUDA_WARP_DEPRECATED(__shfl_xor)                            \
  T __shfl_xor(T var, int laneMask, int width = warpSize);
__HPP_CUDA_SHFL_OLD(int)
__HPP_CUDA_SHFL_OLD(unsigned int)
__HPP_CUDA_SHFL_OLD(long)
__HPP_CUDA_SHFL_OLD(unsigned long)
__HPP_CUDA_SHFL_OLD(long long)
__HPP_CUDA_SHFL_OLD(unsigned long long)
__HPP_CUDA_SHFL_OLD(float)
__HPP_CUDA_SHFL_OLD(double)
#undef __HPP_CUDA_SHFL_OLD
extern "C" {
__device__ __HPP_CUDA_WARP_DEPRECATED(__ballot) unsigned int __ballot(int);
__device__ __HPP_CUDA_WARP_DEPRECATED(__any) int __any(int cond);
__device__ __HPP_CUDA_WARP_DEPRECATED(__all) int __all(int cond);
}
#undef __HPP_CUDA_WARP_DEPRECATED
/// @}

#endif // __HPP_CUDA_WARP_FUNCTIONS_H
