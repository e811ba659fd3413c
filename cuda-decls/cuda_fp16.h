//===- cuda-decls/cuda_fp16.h - CUDA half precision -------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <cuda_fp16.h>: __half and
/// __half2 (and their names half, half2, __nv_half, ...), their
/// conversions from and to the built-in types, and, through
/// __hpp_cuda_half_ops.h, their operators and the __hadd, __hmul, __hmax,
/// hsqrt, __shfl_sync, __ldg and atomicAdd overloads. Not for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_FP16_H
#define __HPP_CUDA_FP16_H

/// CUDA's include guard, which code tests to see what is included.
#define __CUDA_FP16_H__

#include "cuda_runtime.h"

#define __HPP_H __half
#define __HPP_H2 __half2
#define __HPP_HRAW __half_raw
#define __HPP_H2RAW __half2_raw
#include "__hpp_cuda_half_ops.h"
#undef __HPP_H
#undef __HPP_H2
#undef __HPP_HRAW
#undef __HPP_H2RAW

/// \name The other names of the types
/// @{
typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half nv_half;
typedef __half2 nv_half2;
/// @}

/// \name Conversions of floating-point values
/// _rn: to nearest even (the default), _rz: toward zero, _ru: up, _rd:
/// down.
/// @{
__host__ __device__ __half __float2half(const float a);
__host__ __device__ __half __float2half_rn(const float a);
__host__ __device__ __half __float2half_rz(const float a);
__host__ __device__ __half __float2half_ru(const float a);
__host__ __device__ __half __float2half_rd(const float a);
__host__ __device__ __half __double2half(const double a);
__host__ __device__ float __half2float(const __half a);
__host__ __device__ __half2 __float2half2_rn(const float a);
__host__ __device__ __half2 __floats2half2_rn(const float a, const float b);
__host__ __device__ __half2 __float22half2_rn(const float2 a);
__host__ __device__ float2 __half22float2(const __half2 a);
__host__ __device__ float __low2float(const __half2 a);
__host__ __device__ float __high2float(const __half2 a);
/// @}

/// \name Conversions of integers, by rounding mode
/// To an integer: _rz host and device, the other modes device only.
/// @{
#define __HPP_FP16_INT(T, N)                                                   \
  __host__ __device__ __half __##N##2half_rn(const T i);                       \
  __host__ __device__ __half __##N##2half_rz(const T i);                       \
  __host__ __device__ __half __##N##2half_ru(const T i);                       \
  __host__ __device__ __half __##N##2half_rd(const T i);                       \
  __host__ __device__ T __half2##N##_rz(const __half h);                       \
  __device__ T __half2##N##_rn(const __half h);                                \
  __device__ T __half2##N##_ru(const __half h);                                \
  __device__ T __half2##N##_rd(const __half h);
__HPP_FP16_INT(short int, short)
__HPP_FP16_INT(unsigned short int, ushort)
__HPP_FP16_INT(int, int)
__HPP_FP16_INT(unsigned int, uint)
__HPP_FP16_INT(long long int, ll)
__HPP_FP16_INT(unsigned long long int, ull)
#undef __HPP_FP16_INT
__host__ __device__ signed char __half2char_rz(const __half h);
__host__ __device__ unsigned char __half2uchar_rz(const __half h);
/// @}

/// \name Reinterpretations, and the halves of a __half2
/// @{
__host__ __device__ short int __half_as_short(const __half h);
__host__ __device__ unsigned short int __half_as_ushort(const __half h);
__host__ __device__ __half __short_as_half(const short int i);
__host__ __device__ __half __ushort_as_half(const unsigned short int i);
__host__ __device__ __half __low2half(const __half2 a);
__host__ __device__ __half __high2half(const __half2 a);
__host__ __device__ __half2 __halves2half2(const __half a, const __half b);
__host__ __device__ __half2 __half2half2(const __half a);
__host__ __device__ __half2 __lows2half2(const __half2 a, const __half2 b);
__host__ __device__ __half2 __highs2half2(const __half2 a, const __half2 b);
__host__ __device__ __half2 __low2half2(const __half2 a);
__host__ __device__ __half2 __high2half2(const __half2 a);
__host__ __device__ __half2 __lowhigh2highlow(const __half2 a);
__host__ __device__ __half2 make_half2(const __half x, const __half y);
/// @}

/// \name Constants
/// @{
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
/// @}

#endif // __HPP_CUDA_FP16_H
