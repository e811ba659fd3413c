//===- hpp/backend/cpu_cuda_fp16.h - cuda_fp16.h, CPU backend ---*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The basics of CUDA's <cuda_fp16.h> on the CPU backend, in the global
/// namespace as CUDA has them, on a software IEEE binary16 (the bits and
/// their conversions: backend/cpu_half_bits.h):
///  - __half (2 bytes, trivially copyable, so it moves through the warp
///    shuffles and memcpy as on a GPU), __half2 (members x and y),
///    __half_raw, __half2_raw, half and half2; CUDA's implicit conversions:
///    from float, double and the integers (rounded to nearest even), to
///    float, to the integers (toward zero, saturated) and to bool;
///  - __float2half, __float2half_rn, __double2half, __half2float,
///    __floats2half2_rn, __float2half2_rn, __halves2half2, __half2half2,
///    __half22float2, __low2float, __high2float, __low2half, __high2half;
///  - __hadd, __hsub, __hmul, __hdiv, __hneg, __habs, __hmax, __hmin,
///    __heq, __hne, __hneu, __hlt, __hle, __hgt, __hge, __hisnan, and for
///    __half2
///    __hadd2, __hsub2, __hmul2;
///  - the operators CUDA defines: + - * / and their assignments, ++ and
///    --, unary + and -, == != < > <= >= on __half; + - * / and their
///    assignments, unary + and -, and the comparisons (true when true for
///    both halves) on __half2.
/// Arithmetic is exact in float and rounded once to binary16, which gives
/// the correctly rounded result (float's 24 bits are at least 2 * 11 + 2),
/// as CUDA's add.f16 & co.; __hdiv is correctly rounded too. __hmax and
/// __hmin return the other operand when one is a NaN, the canonical NaN
/// when both are, and order +0 above -0, as CUDA's do; __habs and __hneg
/// of a NaN give the canonical NaN.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_CUDA_FP16_H
#define HPP_RUNTIME_BACKEND_CPU_CUDA_FP16_H

#include "hpp/backend/cpu_cuda_types.h"
#include "hpp/backend/cpu_half_bits.h"

#include <type_traits>

/// The bits of a __half, for static initialization (CUDA's).
struct __half_raw {
  unsigned short x;
};
/// The bits of a __half2: x the low half, y the high one.
struct __half2_raw {
  unsigned short x;
  unsigned short y;
};

// The integer types __half converts from and to (CUDA's constructors and
// conversion operators): X(Type).
#define HPP_HALF_FROM_INTEGERS(X)                                              \
  X(short)                                                                     \
  X(unsigned short)                                                            \
  X(int)                                                                       \
  X(unsigned)                                                                  \
  X(long)                                                                      \
  X(unsigned long)                                                             \
  X(long long)                                                                 \
  X(unsigned long long)
#define HPP_HALF_TO_INTEGERS(X)                                                \
  X(signed char)                                                               \
  X(unsigned char)                                                             \
  X(char)                                                                      \
  HPP_HALF_FROM_INTEGERS(X)

/// An IEEE binary16 number.
struct alignas(2) __half {
protected:
  unsigned short __x;

public:
  __half() = default;
  constexpr __half(const __half_raw &R) : __x(R.x) {}
  __half &operator=(const __half_raw &R) {
    __x = R.x;
    return *this;
  }
  operator __half_raw() const { return __half_raw{__x}; }

  __half(float F) : __x(hpp::detail::floatToHalf(F)) {}
  __half(double D) : __x(hpp::detail::doubleToHalf(D)) {}
  __half &operator=(float F) { return *this = __half(F); }
  __half &operator=(double D) { return *this = __half(D); }
  operator float() const { return hpp::detail::halfToFloat(__x); }

#define HPP_HALF_FROM(T)                                                       \
  __half(T V) : __x(hpp::detail::intToHalf(V)) {}                              \
  __half &operator=(T V) { return *this = __half(V); }
  HPP_HALF_FROM_INTEGERS(HPP_HALF_FROM)
#undef HPP_HALF_FROM
#define HPP_HALF_TO(T)                                                         \
  operator T() const { return hpp::detail::halfToInt<T>(__x); }
  HPP_HALF_TO_INTEGERS(HPP_HALF_TO)
#undef HPP_HALF_TO
  /// Non-zero: neither +0 nor -0.
  constexpr operator bool() const { return (__x & 0x7fff) != 0; }
};

#undef HPP_HALF_FROM_INTEGERS
#undef HPP_HALF_TO_INTEGERS

/// Two binary16 numbers: x in the low 16 bits, y in the high ones.
struct alignas(4) __half2 {
  __half x;
  __half y;

  __half2() = default;
  constexpr __half2(const __half &X, const __half &Y) : x(X), y(Y) {}
  __half2(const __half2_raw &R) : x(__half_raw{R.x}), y(__half_raw{R.y}) {}
  __half2 &operator=(const __half2_raw &R) { return *this = __half2(R); }
  operator __half2_raw() const {
    return __half2_raw{__half_raw(x).x, __half_raw(y).x};
  }
};

static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4,
              "CUDA's half types are 2 and 4 bytes");
static_assert(std::is_trivially_copyable<__half>::value &&
                  std::is_trivially_copyable<__half2>::value,
              "the half types move through shuffles and memcpy");

using half = __half;
using half2 = __half2;

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

inline __half __float2half(const float F) { return __half(F); }
inline __half __float2half_rn(const float F) { return __half(F); }
inline __half __double2half(const double D) { return __half(D); }
inline float __half2float(const __half H) { return float(H); }
inline __half2 __floats2half2_rn(const float Low, const float High) {
  return __half2(__half(Low), __half(High));
}
inline __half2 __float2half2_rn(const float F) {
  return __half2(__half(F), __half(F));
}
inline __half2 __halves2half2(const __half Low, const __half High) {
  return __half2(Low, High);
}
inline __half2 __half2half2(const __half H) { return __half2(H, H); }
inline float2 __half22float2(const __half2 H) {
  return float2{float(H.x), float(H.y)};
}
inline float __low2float(const __half2 H) { return float(H.x); }
inline float __high2float(const __half2 H) { return float(H.y); }
inline __half __low2half(const __half2 H) { return H.x; }
inline __half __high2half(const __half2 H) { return H.y; }

//===----------------------------------------------------------------------===//
// Arithmetic and comparisons
//===----------------------------------------------------------------------===//

inline bool __hisnan(const __half H) {
  return hpp::detail::halfIsNaN(__half_raw(H).x);
}
inline __half __hadd(const __half A, const __half B) {
  return __half(float(A) + float(B));
}
inline __half __hsub(const __half A, const __half B) {
  return __half(float(A) - float(B));
}
inline __half __hmul(const __half A, const __half B) {
  return __half(float(A) * float(B));
}
inline __half __hdiv(const __half A, const __half B) {
  return __half(float(A) / float(B));
}
inline __half __hneg(const __half H) {
  const unsigned short Bits = __half_raw(H).x;
  return __half_raw{hpp::detail::halfIsNaN(Bits)
                        ? hpp::detail::HalfNaN
                        : static_cast<unsigned short>(Bits ^ 0x8000)};
}
inline __half __habs(const __half H) {
  const unsigned short Bits = __half_raw(H).x;
  return __half_raw{hpp::detail::halfIsNaN(Bits)
                        ? hpp::detail::HalfNaN
                        : static_cast<unsigned short>(Bits & 0x7fff)};
}
inline bool __heq(const __half A, const __half B) {
  return float(A) == float(B);
}
inline bool __hne(const __half A, const __half B) {
  return float(A) < float(B) || float(A) > float(B);
}
/// Not equal, or unordered (a NaN).
inline bool __hneu(const __half A, const __half B) {
  return !(float(A) == float(B));
}
inline bool __hlt(const __half A, const __half B) {
  return float(A) < float(B);
}
inline bool __hle(const __half A, const __half B) {
  return float(A) <= float(B);
}
inline bool __hgt(const __half A, const __half B) {
  return float(A) > float(B);
}
inline bool __hge(const __half A, const __half B) {
  return float(A) >= float(B);
}

/// The larger of \p A and \p B (a NaN loses; +0 is above -0).
inline __half __hmax(const __half A, const __half B) {
  if (__hisnan(A) && __hisnan(B))
    return __half_raw{hpp::detail::HalfNaN};
  if (__hisnan(A) || __hisnan(B))
    return __hisnan(A) ? B : A;
  if (__heq(A, B)) // +0 and -0: the one without the sign bit.
    return __half_raw(A).x > __half_raw(B).x ? B : A;
  return __hgt(A, B) ? A : B;
}
/// The smaller of \p A and \p B (a NaN loses; -0 is below +0).
inline __half __hmin(const __half A, const __half B) {
  if (__hisnan(A) && __hisnan(B))
    return __half_raw{hpp::detail::HalfNaN};
  if (__hisnan(A) || __hisnan(B))
    return __hisnan(A) ? B : A;
  if (__heq(A, B))
    return __half_raw(A).x > __half_raw(B).x ? A : B;
  return __hlt(A, B) ? A : B;
}

inline __half2 __hadd2(const __half2 A, const __half2 B) {
  return __half2(__hadd(A.x, B.x), __hadd(A.y, B.y));
}
inline __half2 __hsub2(const __half2 A, const __half2 B) {
  return __half2(__hsub(A.x, B.x), __hsub(A.y, B.y));
}
inline __half2 __hmul2(const __half2 A, const __half2 B) {
  return __half2(__hmul(A.x, B.x), __hmul(A.y, B.y));
}

// The operators of __half and __half2: one row each, the function that
// computes it. The __half2 comparisons hold when they hold for both halves
// (CUDA's __hbeq2 & co.; != is __hneu's, true for a NaN, as CUDA's).
#define HPP_HALF_ARITHMETIC(X)                                                 \
  X(+, __hadd)                                                                 \
  X(-, __hsub)                                                                 \
  X(*, __hmul)                                                                 \
  X(/, __hdiv)
#define HPP_HALF_COMPARISONS(X)                                                \
  X(==, __heq)                                                                 \
  X(!=, __hneu)                                                                \
  X(<, __hlt)                                                                  \
  X(>, __hgt)                                                                  \
  X(<=, __hle)                                                                 \
  X(>=, __hge)

#define HPP_HALF_OPERATOR(Op, Fn)                                              \
  inline __half operator Op(const __half &A, const __half &B) {                \
    return Fn(A, B);                                                           \
  }                                                                            \
  inline __half &operator Op##=(__half &A, const __half &B) {                  \
    return A = Fn(A, B);                                                       \
  }                                                                            \
  inline __half2 operator Op(const __half2 &A, const __half2 &B) {             \
    return __half2(Fn(A.x, B.x), Fn(A.y, B.y));                                \
  }                                                                            \
  inline __half2 &operator Op##=(__half2 &A, const __half2 &B) {               \
    return A = A Op B;                                                         \
  }
HPP_HALF_ARITHMETIC(HPP_HALF_OPERATOR)
#undef HPP_HALF_OPERATOR

#define HPP_HALF_COMPARISON(Op, Fn)                                            \
  inline bool operator Op(const __half &A, const __half &B) {                  \
    return Fn(A, B);                                                           \
  }                                                                            \
  inline bool operator Op(const __half2 &A, const __half2 &B) {                \
    return Fn(A.x, B.x) && Fn(A.y, B.y);                                       \
  }
HPP_HALF_COMPARISONS(HPP_HALF_COMPARISON)
#undef HPP_HALF_COMPARISON
#undef HPP_HALF_ARITHMETIC
#undef HPP_HALF_COMPARISONS

inline __half operator+(const __half &H) { return H; }
inline __half operator-(const __half &H) { return __hneg(H); }
inline __half2 operator+(const __half2 &H) { return H; }
inline __half2 operator-(const __half2 &H) {
  return __half2(__hneg(H.x), __hneg(H.y));
}
inline __half &operator++(__half &H) { return H += __half_raw{0x3c00}; }
inline __half &operator--(__half &H) { return H -= __half_raw{0x3c00}; }
inline __half operator++(__half &H, int) {
  const __half Old = H;
  ++H;
  return Old;
}
inline __half operator--(__half &H, int) {
  const __half Old = H;
  --H;
  return Old;
}

#endif // HPP_RUNTIME_BACKEND_CPU_CUDA_FP16_H
