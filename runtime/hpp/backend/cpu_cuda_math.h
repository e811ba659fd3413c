//===- hpp/backend/cpu_cuda_math.h - CUDA device functions, CPU -*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The functions of CUDA's device library that ported code calls without a
/// header of its own, which nvcc and hipcc declare for host and device code
/// and plain C++ lacks:
///  - min and max with CUDA's overload set (one row each below: the two
///    argument types and the result's, so that min(int, unsigned) is
///    unsigned as on CUDA; the floating-point ones are fmin / fmax), and
///    umin, umax, llmin, llmax, ullmin, ullmax;
///  - __ldg and the other cache-hinted loads and stores (__ldca, __ldcg,
///    __ldcs, __ldlu, __ldcv, __stwb, __stcg, __stcs, __stwt): plain ones;
///  - __match_any_sync and __match_all_sync (32-bit masks, as CUDA's), for
///    the calls hpp-rewrite does not rename: hpp::warp32::matchAnySync's
///    collective (backend/cpu_warp.h) under CUDA's names;
///  - __threadfence, __threadfence_block, __threadfence_system: sequentially
///    consistent fences (the blocks of a launch run on several host
///    threads);
///  - rsqrtf, rsqrt, __fdividef, __saturatef, __expf, __logf, __powf,
///    __sinf, __cosf: the exact functions where CUDA's are approximations.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_CUDA_MATH_H
#define HPP_RUNTIME_BACKEND_CPU_CUDA_MATH_H

#include "hpp/cpu/warp.h"
#include "hpp/warp.h"

#include <atomic>
#include <cmath>

// HPP_CUDA_MINMAX(A, B, Result): min(A, B) and max(A, B) returning Result.
#define HPP_CUDA_MINMAX_ROWS(X)                                                \
  X(int, int, int)                                                             \
  X(unsigned, unsigned, unsigned)                                              \
  X(int, unsigned, unsigned)                                                   \
  X(unsigned, int, unsigned)                                                   \
  X(long, long, long)                                                          \
  X(unsigned long, unsigned long, unsigned long)                               \
  X(long, unsigned long, unsigned long)                                        \
  X(unsigned long, long, unsigned long)                                        \
  X(long long, long long, long long)                                           \
  X(unsigned long long, unsigned long long, unsigned long long)                \
  X(long long, unsigned long long, unsigned long long)                         \
  X(unsigned long long, long long, unsigned long long)

#define HPP_CUDA_MINMAX(A, B, Result)                                          \
  inline Result min(const A X, const B Y) {                                    \
    return static_cast<Result>(X) < static_cast<Result>(Y)                     \
               ? static_cast<Result>(X)                                        \
               : static_cast<Result>(Y);                                       \
  }                                                                            \
  inline Result max(const A X, const B Y) {                                    \
    return static_cast<Result>(X) < static_cast<Result>(Y)                     \
               ? static_cast<Result>(Y)                                        \
               : static_cast<Result>(X);                                       \
  }
HPP_CUDA_MINMAX_ROWS(HPP_CUDA_MINMAX)
#undef HPP_CUDA_MINMAX
#undef HPP_CUDA_MINMAX_ROWS

inline float min(const float X, const float Y) { return std::fmin(X, Y); }
inline double min(const double X, const double Y) { return std::fmin(X, Y); }
inline double min(const float X, const double Y) { return std::fmin(X, Y); }
inline double min(const double X, const float Y) { return std::fmin(X, Y); }
inline float max(const float X, const float Y) { return std::fmax(X, Y); }
inline double max(const double X, const double Y) { return std::fmax(X, Y); }
inline double max(const float X, const double Y) { return std::fmax(X, Y); }
inline double max(const double X, const float Y) { return std::fmax(X, Y); }

inline unsigned umin(unsigned X, unsigned Y) { return min(X, Y); }
inline unsigned umax(unsigned X, unsigned Y) { return max(X, Y); }
inline long long llmin(long long X, long long Y) { return min(X, Y); }
inline long long llmax(long long X, long long Y) { return max(X, Y); }
inline unsigned long long ullmin(unsigned long long X, unsigned long long Y) {
  return min(X, Y);
}
inline unsigned long long ullmax(unsigned long long X, unsigned long long Y) {
  return max(X, Y);
}

// The cache-hinted loads and stores: plain ones.
template <class T> T __ldg(const T *Address) { return *Address; }
template <class T> T __ldca(const T *Address) { return *Address; }
template <class T> T __ldcg(const T *Address) { return *Address; }
template <class T> T __ldcs(const T *Address) { return *Address; }
template <class T> T __ldlu(const T *Address) { return *Address; }
template <class T> T __ldcv(const T *Address) { return *Address; }
template <class T> void __stwb(T *Address, T Value) { *Address = Value; }
template <class T> void __stcg(T *Address, T Value) { *Address = Value; }
template <class T> void __stcs(T *Address, T Value) { *Address = Value; }
template <class T> void __stwt(T *Address, T Value) { *Address = Value; }

// __match_any_sync and __match_all_sync, for the calls hpp-rewrite leaves
// as written (in project headers, which it analyses but does not edit; in
// device code it renames them hpp::warp32::matchAnySync & co.): the same
// collectives, under CUDA's names, one overload per value type of CUDA's
// (HIP's, in the simulation of a rename-only port: hpp/cpu/hip_renamed.h).
#if !defined(HPP_CPU_HIP_RENAMED)
#define HPP_CUDA_MATCH(T)                                                      \
  inline unsigned __match_any_sync(unsigned Mask, T Value,                     \
                                   const char *File = __builtin_FILE(),        \
                                   int Line = __builtin_LINE()) {              \
    return ::hpp::detail::matchHalf(::hpp::cpu::CollectiveKind::MatchAny,      \
                                    "__match_any_sync", Mask, Value, File,     \
                                    Line);                                     \
  }                                                                            \
  inline unsigned __match_all_sync(unsigned Mask, T Value, int *Pred,          \
                                   const char *File = __builtin_FILE(),        \
                                   int Line = __builtin_LINE()) {              \
    const unsigned Bits =                                                      \
        ::hpp::detail::matchHalf(::hpp::cpu::CollectiveKind::MatchAll,         \
                                 "__match_all_sync", Mask, Value, File, Line); \
    *Pred = Bits != 0;                                                         \
    return Bits;                                                               \
  }
HPP_WARP_MATCH_TYPES(HPP_CUDA_MATCH)
#undef HPP_CUDA_MATCH
#endif

inline void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void __threadfence_block() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void __threadfence_system() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

inline float rsqrtf(float X) { return 1.0f / std::sqrt(X); }
inline double rsqrt(double X) { return 1.0 / std::sqrt(X); }
inline float __fdividef(float X, float Y) { return X / Y; }
inline float __saturatef(float X) {
  return X > 1.0f ? 1.0f : (X > 0.0f ? X : 0.0f);
}
inline float __expf(float X) { return std::exp(X); }
inline float __logf(float X) { return std::log(X); }
inline float __powf(float X, float Y) { return std::pow(X, Y); }
inline float __sinf(float X) { return std::sin(X); }
inline float __cosf(float X) { return std::cos(X); }

#endif // HPP_RUNTIME_BACKEND_CPU_CUDA_MATH_H
