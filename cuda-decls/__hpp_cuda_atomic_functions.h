//===- cuda-decls/__hpp_cuda_atomic_functions.h - Atomics -------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declarations of CUDA's atomic functions, with
/// CUDA's overload sets (what device_atomic_functions.h and the sm_20, sm_32,
/// sm_60, sm_70 and sm_90 headers declare). Each exists device-wide
/// (atomicAdd), block-wide (atomicAdd_block) and system-wide
/// (atomicAdd_system). All `__device__`; each returns the old value. Not
/// for compiling.
///
/// The __half, __half2 and __nv_bfloat16 overloads of atomicAdd are in
/// <cuda_fp16.h> and <cuda_bf16.h>, as in CUDA.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_ATOMIC_FUNCTIONS_H
#define __HPP_CUDA_ATOMIC_FUNCTIONS_H

#include "vector_types.h"

/// \name The atomic functions of one scope
/// Types, as in CUDA:
///   atomicAdd                  int, unsigned int, unsigned long long int,
///                              float, double, float2 and float4 (sm_90)
///   atomicSub                  int, unsigned int
///   atomicExch                 int, unsigned int, unsigned long long int,
///                              float
///   atomicMin, atomicMax       int, unsigned int, long long int,
///                              unsigned long long int
///   atomicInc, atomicDec       unsigned int (wrapping at val)
///   atomicCAS                  int, unsigned int, unsigned long long int
///   atomicAnd, atomicOr,       int, unsigned int, long long int,
///   atomicXor                  unsigned long long int
/// @{
#define __HPP_CUDA_ATOMIC_OP(Name, T) __device__ T Name(T *address, T val);
#define __HPP_CUDA_ATOMICS(S)                                                  \
  __HPP_CUDA_ATOMIC_OP(atomicAdd##S, int)                                      \
  __HPP_CUDA_ATOMIC_OP(atomicAdd##S, unsigned int)                             \
  __HPP_CUDA_ATOMIC_OP(atomicAdd##S, unsigned long long int)                   \
  __HPP_CUDA_ATOMIC_OP(atomicAdd##S, float)                                    \
  __HPP_CUDA_ATOMIC_OP(atomicAdd##S, double)                                   \
  __HPP_CUDA_ATOMIC_OP(atomicAdd##S, float2)                                   \
  __HPP_CUDA_ATOMIC_OP(atomicAdd##S, float4)                                   \
  __HPP_CUDA_ATOMIC_OP(atomicSub##S, int)                                      \
  __HPP_CUDA_ATOMIC_OP(atomicSub##S, unsigned int)                             \
  __HPP_CUDA_ATOMIC_OP(atomicExch##S, int)                                     \
  __HPP_CUDA_ATOMIC_OP(atomicExch##S, unsigned int)                            \
  __HPP_CUDA_ATOMIC_OP(atomicExch##S, unsigned long long int)                  \
  __HPP_CUDA_ATOMIC_OP(atomicExch##S, float)                                   \
  __HPP_CUDA_ATOMIC_OP(atomicMin##S, int)                                      \
  __HPP_CUDA_ATOMIC_OP(atomicMin##S, unsigned int)                             \
  __HPP_CUDA_ATOMIC_OP(atomicMin##S, long long int)                            \
  __HPP_CUDA_ATOMIC_OP(atomicMin##S, unsigned long long int)                   \
  __HPP_CUDA_ATOMIC_OP(atomicMax##S, int)                                      \
  __HPP_CUDA_ATOMIC_OP(atomicMax##S, unsigned int)                             \
  __HPP_CUDA_ATOMIC_OP(atomicMax##S, long long int)                            \
  __HPP_CUDA_ATOMIC_OP(atomicMax##S, unsigned long long int)                   \
  __HPP_CUDA_ATOMIC_OP(atomicInc##S, unsigned int)                             \
  __HPP_CUDA_ATOMIC_OP(atomicDec##S, unsigned int)                             \
  __HPP_CUDA_ATOMIC_OP(atomicAnd##S, int)                                      \
  __HPP_CUDA_ATOMIC_OP(atomicAnd##S, unsigned int)                             \
  __HPP_CUDA_ATOMIC_OP(atomicAnd##S, long long int)                            \
  __HPP_CUDA_ATOMIC_OP(atomicAnd##S, unsigned long long int)                   \
  __HPP_CUDA_ATOMIC_OP(atomicOr##S, int)                                       \
  __HPP_CUDA_ATOMIC_OP(atomicOr##S, unsigned int)                              \
  __HPP_CUDA_ATOMIC_OP(atomicOr##S, long long int)                             \
  __HPP_CUDA_ATOMIC_OP(atomicOr##S, unsigned long long int)                    \
  __HPP_CUDA_ATOMIC_OP(atomicXor##S, int)                                      \
  __HPP_CUDA_ATOMIC_OP(atomicXor##S, unsigned int)                             \
  __HPP_CUDA_ATOMIC_OP(atomicXor##S, long long int)                            \
  __HPP_CUDA_ATOMIC_OP(atomicXor##S, unsigned long long int)                   \
  __device__ int atomicCAS##S(int *address, int compare, int val);             \
  __device__ unsigned int atomicCAS##S(                                        \
      unsigned int *address, unsigned int compare, unsigned int val);          \
  __device__ unsigned long long int atomicCAS##S(                              \
      unsigned long long int *address, unsigned long long int compare,         \
      unsigned long long int val);
/// @}

/// \name Device, block and system scope
/// @{
__HPP_CUDA_ATOMICS()
__HPP_CUDA_ATOMICS(_block)
__HPP_CUDA_ATOMICS(_system)
/// @}

#undef __HPP_CUDA_ATOMICS
#undef __HPP_CUDA_ATOMIC_OP

/// 16-bit compare-and-swap (sm_70), device scope only.
__device__ unsigned short int atomicCAS(unsigned short int *address,
                                        unsigned short int compare,
                                        unsigned short int val);

/// \name 128-bit exchange and compare-and-swap (sm_90)
/// Of any trivially copyable type of 16 bytes aligned to 16, as in CUDA
/// (which constrains the template the same way).
/// @{
template <class T>
using __hpp_cuda_atomic128_t =
    typename std::enable_if<sizeof(T) == 16 && alignof(T) >= 16 &&
                                std::is_trivially_copyable<T>::value,
                            T>::type;
template <class T>
__device__ __hpp_cuda_atomic128_t<T> atomicCAS(T *address, T compare, T val);
template <class T>
__device__ __hpp_cuda_atomic128_t<T> atomicCAS_block(T *address, T compare,
                                                     T val);
template <class T>
__device__ __hpp_cuda_atomic128_t<T> atomicCAS_system(T *address, T compare,
                                                      T val);
template <class T>
__device__ __hpp_cuda_atomic128_t<T> atomicExch(T *address, T val);
template <class T>
__device__ __hpp_cuda_atomic128_t<T> atomicExch_block(T *address, T val);
template <class T>
__device__ __hpp_cuda_atomic128_t<T> atomicExch_system(T *address, T val);
/// @}

#endif // __HPP_CUDA_ATOMIC_FUNCTIONS_H
