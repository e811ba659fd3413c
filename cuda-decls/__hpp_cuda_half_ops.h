//===- cuda-decls/__hpp_cuda_half_ops.h - 16-bit float types ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declarations of what CUDA's <cuda_fp16.h> and
/// <cuda_bf16.h> declare alike for their 16-bit float type and its pair:
/// the raw structs, the classes with their conversions, the operators, the
/// arithmetic, comparison and math functions, the warp shuffles, cached
/// loads and stores, and atomicAdd. Not for compiling.
///
/// No include guard: <cuda_fp16.h> includes it for __half and __half2,
/// <cuda_bf16.h> for __nv_bfloat16 and __nv_bfloat162, each after defining
///   __HPP_H, __HPP_H2          the scalar and the pair,
///   __HPP_HRAW, __HPP_H2RAW    their raw (bits only) structs.
/// As in CUDA, arithmetic and comparisons are host and device, the fused
/// multiply-adds, math functions, shuffles, loads and atomics device only.
///
//===----------------------------------------------------------------------===//

#if !defined(__HPP_H) || !defined(__HPP_H2) || !defined(__HPP_HRAW) ||         \
    !defined(__HPP_H2RAW)
#error "__hpp_cuda_half_ops.h is included by cuda_fp16.h and cuda_bf16.h only"
#endif

/// The bits of a value, without its arithmetic.
struct __HPP_HRAW {
  unsigned short x;
};
struct __HPP_H2RAW {
  unsigned short x;
  unsigned short y;
};

/// The scalar: converts from every arithmetic type and to every arithmetic
/// type except double (as in CUDA, so that `h * 2.0f` does not become
/// ambiguous with a double conversion).
struct __align__(2) __HPP_H {
protected:
  unsigned short __x;

public:
  __HPP_H() = default;
  __host__ __device__ constexpr __HPP_H(const __HPP_HRAW &hr) : __x(hr.x) {}
  __host__ __device__ __HPP_H &operator=(const __HPP_HRAW &hr);
  __host__ __device__ operator __HPP_HRAW() const;
  __host__ __device__ __HPP_H(const float f);
  __host__ __device__ __HPP_H(const double f);
  __host__ __device__ __HPP_H(const short val);
  __host__ __device__ __HPP_H(const unsigned short val);
  __host__ __device__ __HPP_H(const int val);
  __host__ __device__ __HPP_H(const unsigned int val);
  __host__ __device__ __HPP_H(const long val);
  __host__ __device__ __HPP_H(const unsigned long val);
  __host__ __device__ __HPP_H(const long long val);
  __host__ __device__ __HPP_H(const unsigned long long val);
  __host__ __device__ operator float() const;
  __host__ __device__ operator signed char() const;
  __host__ __device__ operator unsigned char() const;
  __host__ __device__ operator char() const;
  __host__ __device__ operator short() const;
  __host__ __device__ operator unsigned short() const;
  __host__ __device__ operator int() const;
  __host__ __device__ operator unsigned int() const;
  __host__ __device__ operator long() const;
  __host__ __device__ operator unsigned long() const;
  __host__ __device__ operator long long() const;
  __host__ __device__ operator unsigned long long() const;
  __host__ __device__ constexpr operator bool() const {
    return (__x & 0x7FFFU) != 0U;
  }
  __host__ __device__ __HPP_H &operator=(const float f);
  __host__ __device__ __HPP_H &operator=(const double f);
  __host__ __device__ __HPP_H &operator=(const short val);
  __host__ __device__ __HPP_H &operator=(const unsigned short val);
  __host__ __device__ __HPP_H &operator=(const int val);
  __host__ __device__ __HPP_H &operator=(const unsigned int val);
  __host__ __device__ __HPP_H &operator=(const long long val);
  __host__ __device__ __HPP_H &operator=(const unsigned long long val);
};

/// The pair: members x and y.
struct __align__(4) __HPP_H2 {
  __HPP_H x;
  __HPP_H y;
  __HPP_H2() = default;
  __host__ __device__ constexpr __HPP_H2(const __HPP_H &a, const __HPP_H &b)
      : x(a), y(b) {}
  __host__ __device__ __HPP_H2(const __HPP_H2RAW &h2r);
  __host__ __device__ __HPP_H2 &operator=(const __HPP_H2RAW &h2r);
  __host__ __device__ operator __HPP_H2RAW() const;
};

/// \name Operators, as on a built-in floating type
/// @{
#define __HPP_HALF_OPERATORS(T)                                                \
  __host__ __device__ T operator+(const T &lh, const T &rh);                   \
  __host__ __device__ T operator-(const T &lh, const T &rh);                   \
  __host__ __device__ T operator*(const T &lh, const T &rh);                   \
  __host__ __device__ T operator/(const T &lh, const T &rh);                   \
  __host__ __device__ T &operator+=(T &lh, const T &rh);                       \
  __host__ __device__ T &operator-=(T &lh, const T &rh);                       \
  __host__ __device__ T &operator*=(T &lh, const T &rh);                       \
  __host__ __device__ T &operator/=(T &lh, const T &rh);                       \
  __host__ __device__ T &operator++(T &h);                                     \
  __host__ __device__ T &operator--(T &h);                                     \
  __host__ __device__ T operator++(T &h, const int ignored);                   \
  __host__ __device__ T operator--(T &h, const int ignored);                   \
  __host__ __device__ T operator+(const T &h);                                 \
  __host__ __device__ T operator-(const T &h);                                 \
  __host__ __device__ bool operator==(const T &lh, const T &rh);               \
  __host__ __device__ bool operator!=(const T &lh, const T &rh);               \
  __host__ __device__ bool operator>(const T &lh, const T &rh);                \
  __host__ __device__ bool operator<(const T &lh, const T &rh);                \
  __host__ __device__ bool operator>=(const T &lh, const T &rh);               \
  __host__ __device__ bool operator<=(const T &lh, const T &rh);
__HPP_HALF_OPERATORS(__HPP_H)
__HPP_HALF_OPERATORS(__HPP_H2)
#undef __HPP_HALF_OPERATORS
/// @}

/// \name Arithmetic: _rn without contraction into a multiply-add, _sat
/// clamped to [0, 1], _relu clamped below at 0
/// @{
#define __HPP_HALF_ARITH(T, S)                                                 \
  __host__ __device__ T __hadd##S(const T a, const T b);                       \
  __host__ __device__ T __hadd##S##_rn(const T a, const T b);                  \
  __host__ __device__ T __hadd##S##_sat(const T a, const T b);                 \
  __host__ __device__ T __hsub##S(const T a, const T b);                       \
  __host__ __device__ T __hsub##S##_rn(const T a, const T b);                  \
  __host__ __device__ T __hsub##S##_sat(const T a, const T b);                 \
  __host__ __device__ T __hmul##S(const T a, const T b);                       \
  __host__ __device__ T __hmul##S##_rn(const T a, const T b);                  \
  __host__ __device__ T __hmul##S##_sat(const T a, const T b);                 \
  __host__ __device__ T __hneg##S(const T a);                                  \
  __host__ __device__ T __habs##S(const T a);                                  \
  __host__ __device__ T __hmax##S(const T a, const T b);                       \
  __host__ __device__ T __hmin##S(const T a, const T b);                       \
  __host__ __device__ T __hmax##S##_nan(const T a, const T b);                 \
  __host__ __device__ T __hmin##S##_nan(const T a, const T b);                 \
  __device__ T __hfma##S(const T a, const T b, const T c);                     \
  __device__ T __hfma##S##_sat(const T a, const T b, const T c);               \
  __device__ T __hfma##S##_relu(const T a, const T b, const T c);
__HPP_HALF_ARITH(__HPP_H, )
__HPP_HALF_ARITH(__HPP_H2, 2)
#undef __HPP_HALF_ARITH
__host__ __device__ __HPP_H __hdiv(const __HPP_H a, const __HPP_H b);
__host__ __device__ __HPP_H2 __h2div(const __HPP_H2 a, const __HPP_H2 b);
__device__ __HPP_H2 __hcmadd(const __HPP_H2 a, const __HPP_H2 b,
                             const __HPP_H2 c);
/// @}

/// \name Comparisons: ordered, and unordered (u: true when either is NaN)
/// Of scalars: bool. Of pairs: a pair of 1.0 or 0.0 (__heq2), both true
/// (__hbeq2), or a 32-bit mask of two 16-bit halves (__heq2_mask).
/// @{
#define __HPP_HALF_CMP(Op)                                                     \
  __host__ __device__ bool __h##Op(const __HPP_H a, const __HPP_H b);          \
  __host__ __device__ __HPP_H2 __h##Op##2(const __HPP_H2 a, const __HPP_H2 b); \
  __host__ __device__ bool __hb##Op##2(const __HPP_H2 a, const __HPP_H2 b);    \
  __host__ __device__ unsigned int __h##Op##2_mask(const __HPP_H2 a,           \
                                                   const __HPP_H2 b);
__HPP_HALF_CMP(eq)
__HPP_HALF_CMP(ne)
__HPP_HALF_CMP(le)
__HPP_HALF_CMP(ge)
__HPP_HALF_CMP(lt)
__HPP_HALF_CMP(gt)
__HPP_HALF_CMP(equ)
__HPP_HALF_CMP(neu)
__HPP_HALF_CMP(leu)
__HPP_HALF_CMP(geu)
__HPP_HALF_CMP(ltu)
__HPP_HALF_CMP(gtu)
#undef __HPP_HALF_CMP
__host__ __device__ bool __hisnan(const __HPP_H a);
__host__ __device__ __HPP_H2 __hisnan2(const __HPP_H2 a);
__host__ __device__ int __hisinf(const __HPP_H a);
/// @}

/// \name Math: h<name> of a scalar, h2<name> of a pair
/// @{
#define __HPP_HALF_MATH(Name)                                                  \
  __device__ __HPP_H h##Name(const __HPP_H a);                                 \
  __device__ __HPP_H2 h2##Name(const __HPP_H2 a);
__HPP_HALF_MATH(sqrt)
__HPP_HALF_MATH(rsqrt)
__HPP_HALF_MATH(rcp)
__HPP_HALF_MATH(log)
__HPP_HALF_MATH(log2)
__HPP_HALF_MATH(log10)
__HPP_HALF_MATH(exp)
__HPP_HALF_MATH(exp2)
__HPP_HALF_MATH(exp10)
__HPP_HALF_MATH(cos)
__HPP_HALF_MATH(sin)
__HPP_HALF_MATH(tanh)
__HPP_HALF_MATH(tanh_approx)
__HPP_HALF_MATH(ceil)
__HPP_HALF_MATH(floor)
__HPP_HALF_MATH(rint)
__HPP_HALF_MATH(trunc)
#undef __HPP_HALF_MATH
/// @}

/// \name Warp shuffles, cached loads and stores, atomic add
/// The non-_sync shuffles are deprecated, as for the built-in types.
/// @{
#define __HPP_HALF_WARP(T)                                                     \
  __device__ T __shfl_sync(const unsigned int mask, const T var,               \
                           const int srcLane, const int width = warpSize);     \
  __device__ T __shfl_up_sync(const unsigned int mask, const T var,            \
                              const unsigned int delta,                        \
                              const int width = warpSize);                     \
  __device__ T __shfl_down_sync(const unsigned int mask, const T var,          \
                                const unsigned int delta,                      \
                                const int width = warpSize);                   \
  __device__ T __shfl_xor_sync(const unsigned int mask, const T var,           \
                               const int laneMask,                             \
                               const int width = warpSize);                    \
  __device__ __attribute__((deprecated("use __shfl_sync"))) T __shfl(          \
      const T var, const int delta, const int width = warpSize);               \
  __device__ __attribute__((deprecated("use __shfl_up_sync"))) T __shfl_up(    \
      const T var, const unsigned int delta, const int width = warpSize);      \
  __device__ __attribute__((deprecated("use __shfl_down_sync"))) T             \
  __shfl_down(const T var, const unsigned int delta,                           \
              const int width = warpSize);                                     \
  __device__ __attribute__((deprecated("use __shfl_xor_sync"))) T __shfl_xor(  \
      const T var, const int delta, const int width = warpSize);               \
  __device__ T __ldg(const T *const ptr);                                      \
  __device__ T __ldcg(const T *const ptr);                                     \
  __device__ T __ldca(const T *const ptr);                                     \
  __device__ T __ldcs(const T *const ptr);                                     \
  __device__ T __ldlu(const T *const ptr);                                     \
  __device__ T __ldcv(const T *const ptr);                                     \
  __device__ void __stwb(T *const ptr, const T value);                         \
  __device__ void __stcg(T *const ptr, const T value);                         \
  __device__ void __stcs(T *const ptr, const T value);                         \
  __device__ void __stwt(T *const ptr, const T value);                         \
  __device__ T atomicAdd(T *const address, const T val);
__HPP_HALF_WARP(__HPP_H)
__HPP_HALF_WARP(__HPP_H2)
#undef __HPP_HALF_WARP
/// @}
