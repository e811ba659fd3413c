//===- hpp/backend/cpu_half_bits.h - IEEE binary16 conversions --*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The conversions of the CPU backend's __half (backend/cpu_cuda_fp16.h),
/// on the bits of an IEEE binary16 number (1 sign bit, 5 exponent bits of
/// bias 15, 10 fraction bits), with CUDA's results:
///  - float, double and the integers to binary16 round to nearest, ties to
///    even, straight from the source value (a double is not rounded to
///    float first), as cvt.rn.f16 does: subnormal results are kept, values
///    from 65520 up become infinity, a NaN becomes the canonical NaN 0x7fff;
///  - binary16 to float is exact; a NaN becomes the canonical NaN
///    0x7fffffff (CUDA's host conversion drops a NaN's sign and payload);
///  - binary16 to an integer truncates toward zero and saturates to the
///    integer's range (infinities too); a NaN is 0 (cvt.rzi.sat).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_HALF_BITS_H
#define HPP_RUNTIME_BACKEND_CPU_HALF_BITS_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace hpp {
namespace detail {

/// The canonical NaN of binary16 and of float.
constexpr unsigned short HalfNaN = 0x7fff;
constexpr std::uint32_t FloatNaN = 0x7fffffff;

/// The binary16 magnitude nearest to \p Mag * 2^\p Exp (\p Mag > 0, of up
/// to 64 bits), ties to even; infinity (0x7c00) when it is too large.
inline unsigned short roundToHalf(std::uint64_t Mag, int Exp) {
  int Bits = 64;
  while (!(Mag >> (Bits - 1) & 1))
    --Bits;
  // The value lies in [2^E, 2^(E+1)).
  const int E = Bits - 1 + Exp;
  if (E > 15)
    return 0x7c00;
  // The quantum of the result: 2^(E-10) for normal results, 2^-24 (the
  // subnormal unit) below 2^-14.
  const int Quantum = E - 10 > -24 ? E - 10 : -24;
  const int Shift = Quantum - Exp;
  std::uint64_t R;
  if (Shift <= 0) {
    R = Mag << -Shift; // Exact: at most 11 significant bits.
  } else if (Shift > 64) {
    R = 0; // Below a quarter of the quantum.
  } else {
    const std::uint64_t Rest =
        Shift == 64 ? Mag : Mag & ((std::uint64_t(1) << Shift) - 1);
    const std::uint64_t Tie = std::uint64_t(1) << (Shift - 1);
    R = Shift == 64 ? 0 : Mag >> Shift;
    if (Rest > Tie || (Rest == Tie && (R & 1)))
      ++R;
  }
  // R counts quanta: the fraction with its leading bit, which lands on the
  // exponent field (a carry out of the fraction raises the exponent).
  const std::uint64_t Result =
      (std::uint64_t((E > -14 ? E : -14) + 14) << 10) + R;
  return Result >= 0x7c00 ? 0x7c00 : static_cast<unsigned short>(Result);
}

/// \p F as binary16 bits (__float2half_rn).
inline unsigned short floatToHalf(float F) {
  std::uint32_t U;
  std::memcpy(&U, &F, sizeof U);
  const unsigned short Sign = static_cast<unsigned short>(U >> 16 & 0x8000);
  const std::uint32_t Abs = U & 0x7fffffff;
  if (Abs > 0x7f800000)
    return HalfNaN;
  if (Abs == 0x7f800000)
    return Sign | 0x7c00;
  if (Abs == 0)
    return Sign;
  const std::uint32_t Field = Abs >> 23;
  const std::uint32_t Frac = Abs & 0x7fffff;
  // Normal: (2^23 + frac) * 2^(field - 150); subnormal: frac * 2^-149.
  return Sign | (Field ? roundToHalf(Frac | 0x800000, int(Field) - 150)
                       : roundToHalf(Frac, -149));
}

/// \p D as binary16 bits (__double2half), rounded once.
inline unsigned short doubleToHalf(double D) {
  std::uint64_t U;
  std::memcpy(&U, &D, sizeof U);
  const unsigned short Sign = static_cast<unsigned short>(U >> 48 & 0x8000);
  const std::uint64_t Abs = U & 0x7fffffffffffffffULL;
  const std::uint64_t Inf = 0x7ff0000000000000ULL;
  if (Abs > Inf)
    return HalfNaN;
  if (Abs == Inf)
    return Sign | 0x7c00;
  if (Abs == 0)
    return Sign;
  const int Field = int(Abs >> 52);
  const std::uint64_t Frac = Abs & 0xfffffffffffffULL;
  return Sign |
         (Field ? roundToHalf(Frac | (std::uint64_t(1) << 52), Field - 1075)
                : roundToHalf(Frac, -1074));
}

/// The integer \p V as binary16 bits (__int2half_rn & co.).
template <class I> unsigned short intToHalf(I V) {
  static_assert(std::is_integral<I>::value, "an integer");
  if (V == 0)
    return 0;
  const bool Negative = V < 0;
  // The magnitude, computed in the unsigned type (the most negative value
  // too).
  using U = typename std::make_unsigned<I>::type;
  const U Mag = Negative ? U(0) - U(V) : U(V);
  return static_cast<unsigned short>((Negative ? 0x8000 : 0) |
                                     roundToHalf(std::uint64_t(Mag), 0));
}

/// The binary16 number \p H as a float (exact; a NaN is canonical).
inline float halfToFloat(unsigned short H) {
  const std::uint32_t Sign = std::uint32_t(H & 0x8000) << 16;
  const unsigned Field = H >> 10 & 0x1f;
  const std::uint32_t Frac = H & 0x3ff;
  std::uint32_t U;
  if (Field == 0x1f && Frac)
    U = FloatNaN;
  else if (Field == 0x1f)
    U = Sign | 0x7f800000;
  else if (Field)
    U = Sign | (Field + 112) << 23 | Frac << 13;
  else {
    // Zero or subnormal: frac * 2^-24, exact in float.
    const float Magnitude = std::ldexp(static_cast<float>(Frac), -24);
    return Sign ? -Magnitude : Magnitude;
  }
  float F;
  std::memcpy(&F, &U, sizeof F);
  return F;
}

/// The binary16 number \p H as the integer type I: toward zero, saturated,
/// NaN 0 (__half2int_rz & co.).
template <class I> I halfToInt(unsigned short H) {
  const float F = halfToFloat(H);
  if (F != F)
    return 0;
  const float T = std::trunc(F);
  if (T <= static_cast<float>(std::numeric_limits<I>::min()))
    return std::numeric_limits<I>::min();
  // A float at or above 2^64 (or the type's maximum + 1) saturates.
  if (T >= std::ldexp(1.0f, std::numeric_limits<I>::digits))
    return std::numeric_limits<I>::max();
  return static_cast<I>(T);
}

/// Whether the binary16 number \p H is a NaN.
inline bool halfIsNaN(unsigned short H) { return (H & 0x7fff) > 0x7c00; }

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CPU_HALF_BITS_H
