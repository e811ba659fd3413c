//===- cuda-decls/__hpp_cuda_device_functions.h - Intrinsics ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declarations of CUDA's device intrinsics (what
/// CUDA's crt/device_functions.h, device_double_functions.h and the sm_20 to
/// sm_90 intrinsic headers declare): barriers and fences, integer and bit
/// intrinsics, fast and correctly rounded float intrinsics, conversions and
/// reinterpretations, clocks, cached loads and stores, address-space
/// queries, and the C library functions device code may call (printf,
/// malloc, assert). All `__device__`, as in CUDA. Not for compiling.
///
/// The warp intrinsics are in __hpp_cuda_warp_functions.h, the atomics in
/// __hpp_cuda_atomic_functions.h, the math library in
/// __hpp_cuda_math_functions.h.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_DEVICE_FUNCTIONS_H
#define __HPP_CUDA_DEVICE_FUNCTIONS_H

#include "vector_types.h"

extern "C" {

/// \name Barriers and memory fences
/// The _count/_and/_or forms also reduce a predicate over the block.
/// @{
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ void __prof_trigger(int counter);
__device__ __attribute__((noreturn)) void __trap(void);
__device__ void __brkpt(void);
/// @}

/// \name Integer intrinsics: high halves, 24-bit products, bit counts
/// @{
__device__ int __mulhi(int x, int y);
__device__ unsigned int __umulhi(unsigned int x, unsigned int y);
__device__ long long int __mul64hi(long long int x, long long int y);
__device__ unsigned long long int __umul64hi(unsigned long long int x,
                                             unsigned long long int y);
__device__ int __mul24(int x, int y);
__device__ unsigned int __umul24(unsigned int x, unsigned int y);
__device__ unsigned int __sad(int x, int y, unsigned int z);
__device__ unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);
__device__ int __hadd(int x, int y);
__device__ int __rhadd(int x, int y);
__device__ unsigned int __uhadd(unsigned int x, unsigned int y);
__device__ unsigned int __urhadd(unsigned int x, unsigned int y);
__device__ int __clz(int x);
__device__ int __clzll(long long int x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long int x);
__device__ int __popc(unsigned int x);
__device__ int __popcll(unsigned long long int x);
__device__ unsigned int __brev(unsigned int x);
__device__ unsigned long long int __brevll(unsigned long long int x);
__device__ unsigned int __byte_perm(unsigned int x, unsigned int y,
                                    unsigned int s);
/// @}

/// \name Float intrinsics: bit casts, fast approximations, rounding modes
/// @{
__device__ float __int_as_float(int x);
__device__ int __float_as_int(float x);
__device__ float __uint_as_float(unsigned int x);
__device__ unsigned int __float_as_uint(float x);
__device__ float __saturatef(float x);
__device__ float __fdividef(float x, float y);
__device__ float fdividef(float x, float y);
__device__ float __sinf(float x);
__device__ float __cosf(float x);
__device__ float __tanf(float x);
__device__ float __tanhf(float x);
__device__ void __sincosf(float x, float *sptr, float *cptr);
__device__ float __expf(float x);
__device__ float __exp10f(float x);
__device__ float __log2f(float x);
__device__ float __log10f(float x);
__device__ float __logf(float x);
__device__ float __powf(float x, float y);
// clang-format off
__device__ float __fadd_rn(float x, float y);
__device__ float __fadd_rz(float x, float y);
__device__ float __fadd_ru(float x, float y);
__device__ float __fadd_rd(float x, float y);
__device__ float __fsub_rn(float x, float y);
__device__ float __fsub_rz(float x, float y);
__device__ float __fsub_ru(float x, float y);
__device__ float __fsub_rd(float x, float y);
__device__ float __fmul_rn(float x, float y);
__device__ float __fmul_rz(float x, float y);
__device__ float __fmul_ru(float x, float y);
__device__ float __fmul_rd(float x, float y);
__device__ float __fdiv_rn(float x, float y);
__device__ float __fdiv_rz(float x, float y);
__device__ float __fdiv_ru(float x, float y);
__device__ float __fdiv_rd(float x, float y);
__device__ float __fmaf_rn(float x, float y, float z);
__device__ float __fmaf_rz(float x, float y, float z);
__device__ float __fmaf_ru(float x, float y, float z);
__device__ float __fmaf_rd(float x, float y, float z);
__device__ float __fmaf_ieee_rn(float x, float y, float z);
__device__ float __fmaf_ieee_rz(float x, float y, float z);
__device__ float __fmaf_ieee_ru(float x, float y, float z);
__device__ float __fmaf_ieee_rd(float x, float y, float z);
__device__ float __frcp_rn(float x);
__device__ float __frcp_rz(float x);
__device__ float __frcp_ru(float x);
__device__ float __frcp_rd(float x);
__device__ float __fsqrt_rn(float x);
__device__ float __fsqrt_rz(float x);
__device__ float __fsqrt_ru(float x);
__device__ float __fsqrt_rd(float x);
__device__ float __frsqrt_rn(float x);
// clang-format on
/// @}

/// \name Double intrinsics: bit casts, halves, rounding modes
/// @{
// clang-format off
__device__ long long int __double_as_longlong(double x);
__device__ double __longlong_as_double(long long int x);
__device__ int __double2hiint(double x);
__device__ int __double2loint(double x);
__device__ double __hiloint2double(int hi, int lo);
__device__ double __dadd_rn(double x, double y);
__device__ double __dadd_rz(double x, double y);
__device__ double __dadd_ru(double x, double y);
__device__ double __dadd_rd(double x, double y);
__device__ double __dsub_rn(double x, double y);
__device__ double __dsub_rz(double x, double y);
__device__ double __dsub_ru(double x, double y);
__device__ double __dsub_rd(double x, double y);
__device__ double __dmul_rn(double x, double y);
__device__ double __dmul_rz(double x, double y);
__device__ double __dmul_ru(double x, double y);
__device__ double __dmul_rd(double x, double y);
__device__ double __ddiv_rn(double x, double y);
__device__ double __ddiv_rz(double x, double y);
__device__ double __ddiv_ru(double x, double y);
__device__ double __ddiv_rd(double x, double y);
__device__ double __drcp_rn(double x);
__device__ double __drcp_rz(double x);
__device__ double __drcp_ru(double x);
__device__ double __drcp_rd(double x);
__device__ double __dsqrt_rn(double x);
__device__ double __dsqrt_rz(double x);
__device__ double __dsqrt_ru(double x);
__device__ double __dsqrt_rd(double x);
__device__ double __fma_rn(double x, double y, double z);
__device__ double __fma_rz(double x, double y, double z);
__device__ double __fma_ru(double x, double y, double z);
__device__ double __fma_rd(double x, double y, double z);
// clang-format on
/// @}

/// \name Conversions between integers and floating point, by rounding mode
/// rn: to nearest even, rz: toward zero, ru: up, rd: down.
/// @{
// clang-format off
__device__ int __float2int_rn(float x);
__device__ int __float2int_rz(float x);
__device__ int __float2int_ru(float x);
__device__ int __float2int_rd(float x);
__device__ unsigned int __float2uint_rn(float x);
__device__ unsigned int __float2uint_rz(float x);
__device__ unsigned int __float2uint_ru(float x);
__device__ unsigned int __float2uint_rd(float x);
__device__ long long int __float2ll_rn(float x);
__device__ long long int __float2ll_rz(float x);
__device__ long long int __float2ll_ru(float x);
__device__ long long int __float2ll_rd(float x);
__device__ unsigned long long int __float2ull_rn(float x);
__device__ unsigned long long int __float2ull_rz(float x);
__device__ unsigned long long int __float2ull_ru(float x);
__device__ unsigned long long int __float2ull_rd(float x);
__device__ float __int2float_rn(int x);
__device__ float __int2float_rz(int x);
__device__ float __int2float_ru(int x);
__device__ float __int2float_rd(int x);
__device__ float __uint2float_rn(unsigned int x);
__device__ float __uint2float_rz(unsigned int x);
__device__ float __uint2float_ru(unsigned int x);
__device__ float __uint2float_rd(unsigned int x);
__device__ float __ll2float_rn(long long int x);
__device__ float __ll2float_rz(long long int x);
__device__ float __ll2float_ru(long long int x);
__device__ float __ll2float_rd(long long int x);
__device__ float __ull2float_rn(unsigned long long int x);
__device__ float __ull2float_rz(unsigned long long int x);
__device__ float __ull2float_ru(unsigned long long int x);
__device__ float __ull2float_rd(unsigned long long int x);
__device__ float __double2float_rn(double x);
__device__ float __double2float_rz(double x);
__device__ float __double2float_ru(double x);
__device__ float __double2float_rd(double x);
__device__ int __double2int_rn(double x);
__device__ int __double2int_rz(double x);
__device__ int __double2int_ru(double x);
__device__ int __double2int_rd(double x);
__device__ unsigned int __double2uint_rn(double x);
__device__ unsigned int __double2uint_rz(double x);
__device__ unsigned int __double2uint_ru(double x);
__device__ unsigned int __double2uint_rd(double x);
__device__ long long int __double2ll_rn(double x);
__device__ long long int __double2ll_rz(double x);
__device__ long long int __double2ll_ru(double x);
__device__ long long int __double2ll_rd(double x);
__device__ unsigned long long int __double2ull_rn(double x);
__device__ unsigned long long int __double2ull_rz(double x);
__device__ unsigned long long int __double2ull_ru(double x);
__device__ unsigned long long int __double2ull_rd(double x);
__device__ double __int2double_rn(int x);
__device__ double __uint2double_rn(unsigned int x);
__device__ double __ll2double_rn(long long int x);
__device__ double __ll2double_rz(long long int x);
__device__ double __ll2double_ru(long long int x);
__device__ double __ll2double_rd(long long int x);
__device__ double __ull2double_rn(unsigned long long int x);
__device__ double __ull2double_rz(unsigned long long int x);
__device__ double __ull2double_ru(unsigned long long int x);
__device__ double __ull2double_rd(unsigned long long int x);
// clang-format on
/// @}

/// \name Clocks
/// clock() is also the C library's host function (<time.h>).
/// @{
__device__ long long int clock64(void);
__device__ clock_t clock(void);
/// @}

/// \name The C library in device code
/// printf, malloc, free, memcpy, memset, and what glibc's assert() calls;
/// device overloads of the host functions of <stdio.h>, <stdlib.h> and
/// <string.h>.
/// @{
__device__ int printf(const char *format, ...);
__device__ int vprintf(const char *format, const char *args);
__device__ void *malloc(size_t size);
__device__ void free(void *ptr);
__device__ void *memcpy(void *dest, const void *src, size_t n);
__device__ void *memset(void *s, int c, size_t n);
__device__ void __assertfail(const char *message, const char *file,
                             unsigned int line, const char *function,
                             size_t charSize);
__device__ void __assert_fail(const char *assertion, const char *file,
                              unsigned int line, const char *function);
/// @}

} // extern "C"

/// \name SIMD video intrinsics: two 16-bit or four 8-bit lanes of a word
/// @{
#define __HPP_CUDA_SIMD(N)                                                     \
  __device__ unsigned int __vabs##N(unsigned int a);                           \
  __device__ unsigned int __vabsss##N(unsigned int a);                         \
  __device__ unsigned int __vneg##N(unsigned int a);                           \
  __device__ unsigned int __vnegss##N(unsigned int a);                         \
  __device__ unsigned int __vadd##N(unsigned int a, unsigned int b);           \
  __device__ unsigned int __vaddss##N(unsigned int a, unsigned int b);         \
  __device__ unsigned int __vaddus##N(unsigned int a, unsigned int b);         \
  __device__ unsigned int __vsub##N(unsigned int a, unsigned int b);           \
  __device__ unsigned int __vsubss##N(unsigned int a, unsigned int b);         \
  __device__ unsigned int __vsubus##N(unsigned int a, unsigned int b);         \
  __device__ unsigned int __vavgs##N(unsigned int a, unsigned int b);          \
  __device__ unsigned int __vavgu##N(unsigned int a, unsigned int b);          \
  __device__ unsigned int __vhaddu##N(unsigned int a, unsigned int b);         \
  __device__ unsigned int __vabsdiffs##N(unsigned int a, unsigned int b);      \
  __device__ unsigned int __vabsdiffu##N(unsigned int a, unsigned int b);      \
  __device__ unsigned int __vsads##N(unsigned int a, unsigned int b);          \
  __device__ unsigned int __vsadu##N(unsigned int a, unsigned int b);          \
  __device__ unsigned int __vmaxs##N(unsigned int a, unsigned int b);          \
  __device__ unsigned int __vmaxu##N(unsigned int a, unsigned int b);          \
  __device__ unsigned int __vmins##N(unsigned int a, unsigned int b);          \
  __device__ unsigned int __vminu##N(unsigned int a, unsigned int b);          \
  __device__ unsigned int __vcmpeq##N(unsigned int a, unsigned int b);         \
  __device__ unsigned int __vcmpne##N(unsigned int a, unsigned int b);         \
  __device__ unsigned int __vcmpges##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vcmpgeu##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vcmpgts##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vcmpgtu##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vcmples##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vcmpleu##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vcmplts##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vcmpltu##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vseteq##N(unsigned int a, unsigned int b);         \
  __device__ unsigned int __vsetne##N(unsigned int a, unsigned int b);         \
  __device__ unsigned int __vsetges##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vsetgeu##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vsetgts##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vsetgtu##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vsetles##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vsetleu##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vsetlts##N(unsigned int a, unsigned int b);        \
  __device__ unsigned int __vsetltu##N(unsigned int a, unsigned int b);
extern "C" {
__HPP_CUDA_SIMD(2)
__HPP_CUDA_SIMD(4)
}
#undef __HPP_CUDA_SIMD
/// @}

/// \name Funnel shifts, dot products, nanosleep
/// @{
__device__ unsigned int __funnelshift_l(unsigned int lo, unsigned int hi,
                                        unsigned int shift);
__device__ unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi,
                                         unsigned int shift);
__device__ unsigned int __funnelshift_r(unsigned int lo, unsigned int hi,
                                        unsigned int shift);
__device__ unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi,
                                         unsigned int shift);
__device__ int __dp4a(int srcA, int srcB, int c);
__device__ unsigned int __dp4a(unsigned int srcA, unsigned int srcB,
                               unsigned int c);
__device__ int __dp4a(char4 srcA, char4 srcB, int c);
__device__ unsigned int __dp4a(uchar4 srcA, uchar4 srcB, unsigned int c);
__device__ int __dp2a_lo(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_lo(unsigned int srcA, unsigned int srcB,
                                  unsigned int c);
__device__ int __dp2a_hi(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_hi(unsigned int srcA, unsigned int srcB,
                                  unsigned int c);
__device__ void __nanosleep(unsigned int ns);
/// @}

/// \name Address spaces: queries and conversions of generic pointers
/// @{
__device__ unsigned int __isGlobal(const void *ptr);
__device__ unsigned int __isShared(const void *ptr);
__device__ unsigned int __isConstant(const void *ptr);
__device__ unsigned int __isLocal(const void *ptr);
__device__ size_t __cvta_generic_to_global(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ size_t __cvta_generic_to_constant(const void *ptr);
__device__ size_t __cvta_generic_to_local(const void *ptr);
__device__ void *__cvta_global_to_generic(size_t rawbits);
__device__ void *__cvta_shared_to_generic(size_t rawbits);
__device__ void *__cvta_constant_to_generic(size_t rawbits);
__device__ void *__cvta_local_to_generic(size_t rawbits);
/// @}

/// \name Thread-block clusters (sm_90)
/// @{
__device__ unsigned int __isClusterShared(const void *ptr);
__device__ void *__cluster_map_shared_rank(const void *ptr,
                                           unsigned int target_block_rank);
__device__ unsigned int __cluster_query_shared_rank(const void *ptr);
__device__ unsigned int __clusterDimIsSpecified(void);
__device__ dim3 __clusterDim(void);
__device__ dim3 __clusterRelativeBlockIdx(void);
__device__ dim3 __clusterGridDimInClusters(void);
__device__ dim3 __clusterIdx(void);
__device__ unsigned int __clusterRelativeBlockRank(void);
__device__ unsigned int __clusterSizeInBlocks(void);
__device__ void __cluster_barrier_arrive(void);
__device__ void __cluster_barrier_arrive_relaxed(void);
__device__ void __cluster_barrier_wait(void);
__device__ void __threadfence_cluster(void);
/// @}

/// \name Loads through the read-only cache (__ldg) and with cache hints
/// __ldg, __ldcg (global level), __ldca (all levels), __ldcs (streaming),
/// __ldlu (last use), __ldcv (volatile); stores __stwb (write back),
/// __stcg, __stcs, __stwt (write through). One overload per scalar and
/// vector type CUDA lists.
/// @{
#define __HPP_CUDA_LDST(T)                                                     \
  __device__ T __ldg(const T *ptr);                                            \
  __device__ T __ldcg(const T *ptr);                                           \
  __device__ T __ldca(const T *ptr);                                           \
  __device__ T __ldcs(const T *ptr);                                           \
  __device__ T __ldlu(const T *ptr);                                           \
  __device__ T __ldcv(const T *ptr);                                           \
  __device__ void __stwb(T *ptr, T value);                                     \
  __device__ void __stcg(T *ptr, T value);                                     \
  __device__ void __stcs(T *ptr, T value);                                     \
  __device__ void __stwt(T *ptr, T value);
__HPP_CUDA_LDST(char)
__HPP_CUDA_LDST(signed char)
__HPP_CUDA_LDST(short)
__HPP_CUDA_LDST(int)
__HPP_CUDA_LDST(long)
__HPP_CUDA_LDST(long long)
__HPP_CUDA_LDST(unsigned char)
__HPP_CUDA_LDST(unsigned short)
__HPP_CUDA_LDST(unsigned int)
__HPP_CUDA_LDST(unsigned long)
__HPP_CUDA_LDST(unsigned long long)
__HPP_CUDA_LDST(float)
__HPP_CUDA_LDST(double)
__HPP_CUDA_LDST(char2)
__HPP_CUDA_LDST(char4)
__HPP_CUDA_LDST(short2)
__HPP_CUDA_LDST(short4)
__HPP_CUDA_LDST(int2)
__HPP_CUDA_LDST(int4)
__HPP_CUDA_LDST(longlong2)
__HPP_CUDA_LDST(uchar2)
__HPP_CUDA_LDST(uchar4)
__HPP_CUDA_LDST(ushort2)
__HPP_CUDA_LDST(ushort4)
__HPP_CUDA_LDST(uint2)
__HPP_CUDA_LDST(uint4)
__HPP_CUDA_LDST(ulonglong2)
__HPP_CUDA_LDST(float2)
__HPP_CUDA_LDST(float4)
__HPP_CUDA_LDST(double2)
#undef __HPP_CUDA_LDST
/// @}

#endif // __HPP_CUDA_DEVICE_FUNCTIONS_H
