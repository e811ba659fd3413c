//===- hpp/backend/gpu_cuda_fp16.h - cuda_fp16.h, CUDA and HIP --*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, GPU backends (hpp/cuda_api.h; nvcc;
// hipcc, HIP 5.2 to ROCm 7.x).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA's half precision in ported code:
///  - CUDA: the real <cuda_fp16.h>. Its __half2 has user-provided copy and
///    move constructors (so it is not trivially copyable) that copy the
///    bits; it is declared a warp value (hpp::detail::IsWarpValue), so the
///    warp operations shuffle it, as CUDA's __shfl_*_sync overloads do;
///  - HIP: <hip/hip_fp16.h>, which has CUDA's names (__half, __half2, half,
///    the conversions, __hadd & co., the operators in device code), and
///    __hmax and __hmin where it lacks them (HIP 5.2): CUDA's (a NaN loses
///    to a number, two NaNs give the canonical NaN, +0 is above -0), as
///    templates that HIP's own functions win against where a version has
///    them.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_CUDA_FP16_H
#define HPP_RUNTIME_BACKEND_GPU_CUDA_FP16_H

#include <type_traits>

#if defined(HPP_BACKEND_CUDA)

#include <cuda_fp16.h>

namespace hpp {
namespace detail {
template <> struct IsWarpValue<__half2> : std::true_type {};
} // namespace detail
} // namespace hpp

#else

#include <hip/hip_fp16.h>

namespace hpp {
namespace detail {

/// CUDA's __hmax (\p Max) or __hmin of \p A and \p B.
template <class H>
HPP_HD inline H halfMinMax(const H A, const H B, const bool Max) {
  const float FA = __half2float(A), FB = __half2float(B);
  const bool NaNA = FA != FA, NaNB = FB != FB;
  if (NaNA && NaNB) {
    __half_raw Canonical;
    Canonical.x = 0x7fff;
    return H(Canonical);
  }
  if (NaNA || NaNB)
    return NaNA ? B : A;
  if (FA == FB) {
    // +0 and -0 (or equal bits): the one with the sign bit is the smaller.
    const bool ASigned =
        static_cast<__half_raw>(A).x > static_cast<__half_raw>(B).x;
    return ASigned == Max ? B : A;
  }
  return (FA > FB) == Max ? A : B;
}

} // namespace detail
} // namespace hpp

/// The larger of \p A and \p B, as CUDA's __hmax.
template <class H, typename std::enable_if<std::is_same<H, __half>::value,
                                           int>::type = 0>
HPP_HD inline H __hmax(const H A, const H B) {
  return ::hpp::detail::halfMinMax(A, B, /*Max=*/true);
}
/// The smaller of \p A and \p B, as CUDA's __hmin.
template <class H, typename std::enable_if<std::is_same<H, __half>::value,
                                           int>::type = 0>
HPP_HD inline H __hmin(const H A, const H B) {
  return ::hpp::detail::halfMinMax(A, B, /*Max=*/false);
}

#endif

#endif // HPP_RUNTIME_BACKEND_GPU_CUDA_FP16_H
