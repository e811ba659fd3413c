//===- cuda-decls/cuda_bf16.h - CUDA bfloat16 -------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <cuda_bf16.h>:
/// __nv_bfloat16 and __nv_bfloat162 (and nv_bfloat16, nv_bfloat162), their
/// conversions, and, through __hpp_cuda_half_ops.h, the same operators and
/// overloads of __hadd, __hmul, hsqrt, __shfl_sync, __ldg and atomicAdd as
/// __half has. Like CUDA's, it includes <cuda_fp16.h>. Not for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_BF16_H
#define __HPP_CUDA_BF16_H

/// CUDA's include guard, which code tests to see what is included.
#define __CUDA_BF16_H__

#include "cuda_fp16.h"

#define __HPP_H __nv_bfloat16
#define __HPP_H2 __nv_bfloat162
#define __HPP_HRAW __nv_bfloat16_raw
#define __HPP_H2RAW __nv_bfloat162_raw
#include "__hpp_cuda_half_ops.h"
#undef __HPP_H
#undef __HPP_H2
#undef __HPP_HRAW
#undef __HPP_H2RAW

/// \name The other names of the types
/// @{
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
/// @}

/// \name Conversions
/// _rn: to nearest even (the default), _rz: toward zero, _ru: up, _rd:
/// down.
/// @{
__host__ __device__ __nv_bfloat16 __float2bfloat16(const float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(const float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rz(const float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_ru(const float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rd(const float a);
__host__ __device__ __nv_bfloat16 __double2bfloat16(const double a);
__host__ __device__ float __bfloat162float(const __nv_bfloat16 a);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(const float a);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(const float a,
                                                         const float b);
__host__ __device__ __nv_bfloat162 __float22bfloat162_rn(const float2 a);
__host__ __device__ float2 __bfloat1622float2(const __nv_bfloat162 a);
__host__ __device__ float __low2float(const __nv_bfloat162 a);
__host__ __device__ float __high2float(const __nv_bfloat162 a);
__host__ __device__ int __bfloat162int_rz(const __nv_bfloat16 h);
__host__ __device__ __nv_bfloat16 __int2bfloat16_rn(const int i);
__host__ __device__ short int __bfloat16_as_short(const __nv_bfloat16 h);
__host__ __device__ unsigned short int
__bfloat16_as_ushort(const __nv_bfloat16 h);
__host__ __device__ __nv_bfloat16 __short_as_bfloat16(const short int i);
__host__ __device__ __nv_bfloat16
__ushort_as_bfloat16(const unsigned short int i);
__host__ __device__ __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a);
__host__ __device__ __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a);
__host__ __device__ __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a,
                                                      const __nv_bfloat16 b);
__host__ __device__ __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a);
__host__ __device__ __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x,
                                                  const __nv_bfloat16 y);
/// @}

/// \name Constants
/// @{
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
/// @}

#endif // __HPP_CUDA_BF16_H
