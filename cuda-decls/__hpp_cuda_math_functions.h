//===- cuda-decls/__hpp_cuda_math_functions.h - Math library ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declarations of CUDA's math library (what CUDA's
/// crt/math_functions.h declares): the single- and double-precision
/// functions, abs, and CUDA's min and max. Not for compiling.
///
/// CUDA declares these `__host__ __device__`. clang refuses a `__host__
/// __device__` redeclaration of a host function, and the C library has
/// already declared most of them (<math.h> is included first, as nvcc's
/// headers do), so:
///   * a function the C library declares gets a `__device__` overload here;
///     host code calls the C library's, device code this one;
///   * a function only CUDA has (rsqrtf, erfinvf, norm3df, min, max, ...)
///     is `__host__ __device__`, as in CUDA.
/// Without the device overloads, a kernel calling sqrtf would not parse:
/// clang resolves a call from device code to a host-only function as "no
/// matching function", even in a host-only parse.
///
/// The float overloads of the C++ names (sqrt(float), ...) need nothing:
/// libstdc++ defines them constexpr, which clang treats as host and device.
/// The double ones are the C library's, so std:: re-exports the device
/// overloads below (as clang's own CUDA headers do), for std::sqrt(double)
/// in device code.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_MATH_FUNCTIONS_H
#define __HPP_CUDA_MATH_FUNCTIONS_H

#include "__hpp_cuda_decls.h"

/// glibc 2.41 declares the C23 sinpi and cospi; before, only CUDA has them.
#if defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 41)
#define __HPP_CUDA_MATH_C23 __device__
#endif
#endif
#ifndef __HPP_CUDA_MATH_C23
#define __HPP_CUDA_MATH_C23 __host__ __device__
#endif

extern "C" {

/// \name Integer absolute values: device overloads of <stdlib.h>'s
/// @{
__device__ int abs(int a);
__device__ long int labs(long int a);
__device__ long long int llabs(long long int a);
/// @}

/// \name Functions the C library declares: device overloads
/// @{
// clang-format off
__device__ double acos(double x);
__device__ float acosf(float x);
__device__ double acosh(double x);
__device__ float acoshf(float x);
__device__ double asin(double x);
__device__ float asinf(float x);
__device__ double asinh(double x);
__device__ float asinhf(float x);
__device__ double atan(double x);
__device__ float atanf(float x);
__device__ double atanh(double x);
__device__ float atanhf(float x);
__device__ double cbrt(double x);
__device__ float cbrtf(float x);
__device__ double ceil(double x);
__device__ float ceilf(float x);
__device__ double cos(double x);
__device__ float cosf(float x);
__device__ double cosh(double x);
__device__ float coshf(float x);
__device__ double erf(double x);
__device__ float erff(float x);
__device__ double erfc(double x);
__device__ float erfcf(float x);
__device__ double exp(double x);
__device__ float expf(float x);
__device__ double exp10(double x);
__device__ float exp10f(float x);
__device__ double exp2(double x);
__device__ float exp2f(float x);
__device__ double expm1(double x);
__device__ float expm1f(float x);
__device__ double fabs(double x);
__device__ float fabsf(float x);
__device__ double floor(double x);
__device__ float floorf(float x);
__device__ double j0(double x);
__device__ float j0f(float x);
__device__ double j1(double x);
__device__ float j1f(float x);
__device__ double lgamma(double x);
__device__ float lgammaf(float x);
__device__ double log(double x);
__device__ float logf(float x);
__device__ double log10(double x);
__device__ float log10f(float x);
__device__ double log1p(double x);
__device__ float log1pf(float x);
__device__ double log2(double x);
__device__ float log2f(float x);
__device__ double logb(double x);
__device__ float logbf(float x);
__device__ double nearbyint(double x);
__device__ float nearbyintf(float x);
__device__ double rint(double x);
__device__ float rintf(float x);
__device__ double round(double x);
__device__ float roundf(float x);
__device__ double sin(double x);
__device__ float sinf(float x);
__device__ double sinh(double x);
__device__ float sinhf(float x);
__device__ double sqrt(double x);
__device__ float sqrtf(float x);
__device__ double tan(double x);
__device__ float tanf(float x);
__device__ double tanh(double x);
__device__ float tanhf(float x);
__device__ double tgamma(double x);
__device__ float tgammaf(float x);
__device__ double trunc(double x);
__device__ float truncf(float x);
__device__ double y0(double x);
__device__ float y0f(float x);
__device__ double y1(double x);
__device__ float y1f(float x);
__device__ double atan2(double x, double y);
__device__ float atan2f(float x, float y);
__device__ double copysign(double x, double y);
__device__ float copysignf(float x, float y);
__device__ double fdim(double x, double y);
__device__ float fdimf(float x, float y);
__device__ double fmax(double x, double y);
__device__ float fmaxf(float x, float y);
__device__ double fmin(double x, double y);
__device__ float fminf(float x, float y);
__device__ double fmod(double x, double y);
__device__ float fmodf(float x, float y);
__device__ double hypot(double x, double y);
__device__ float hypotf(float x, float y);
__device__ double nextafter(double x, double y);
__device__ float nextafterf(float x, float y);
__device__ double pow(double x, double y);
__device__ float powf(float x, float y);
__device__ double remainder(double x, double y);
__device__ float remainderf(float x, float y);
__device__ double fma(double x, double y, double z);
__device__ float fmaf(float x, float y, float z);
__device__ double frexp(double x, int *nptr);
__device__ float frexpf(float x, int *nptr);
__device__ double ldexp(double x, int exp);
__device__ float ldexpf(float x, int exp);
__device__ double modf(double x, double *iptr);
__device__ float modff(float x, float *iptr);
__device__ double remquo(double x, double y, int *quo);
__device__ float remquof(float x, float y, int *quo);
__device__ double scalbn(double x, int n);
__device__ float scalbnf(float x, int n);
__device__ double scalbln(double x, long int n);
__device__ float scalblnf(float x, long int n);
__device__ int ilogb(double x);
__device__ int ilogbf(float x);
__device__ long int lrint(double x);
__device__ long int lrintf(float x);
__device__ long int lround(double x);
__device__ long int lroundf(float x);
__device__ long long int llrint(double x);
__device__ long long int llrintf(float x);
__device__ long long int llround(double x);
__device__ long long int llroundf(float x);
__device__ double nan(const char *tagp);
__device__ float nanf(const char *tagp);
__device__ void sincos(double x, double *sptr, double *cptr);
__device__ void sincosf(float x, float *sptr, float *cptr);
__device__ double jn(int n, double x);
__device__ float jnf(int n, float x);
__device__ double yn(int n, double x);
__device__ float ynf(int n, float x);
// clang-format on
/// @}

/// \name Functions only CUDA has: host and device
/// @{
// clang-format off
__host__ __device__ double cyl_bessel_i0(double x);
__host__ __device__ float cyl_bessel_i0f(float x);
__host__ __device__ double cyl_bessel_i1(double x);
__host__ __device__ float cyl_bessel_i1f(float x);
__host__ __device__ double erfcinv(double x);
__host__ __device__ float erfcinvf(float x);
__host__ __device__ double erfcx(double x);
__host__ __device__ float erfcxf(float x);
__host__ __device__ double erfinv(double x);
__host__ __device__ float erfinvf(float x);
__host__ __device__ double normcdf(double x);
__host__ __device__ float normcdff(float x);
__host__ __device__ double normcdfinv(double x);
__host__ __device__ float normcdfinvf(float x);
__host__ __device__ double rcbrt(double x);
__host__ __device__ float rcbrtf(float x);
__host__ __device__ double rsqrt(double x);
__host__ __device__ float rsqrtf(float x);
__host__ __device__ double rhypot(double x, double y);
__host__ __device__ float rhypotf(float x, float y);
__host__ __device__ double norm3d(double a, double b, double c);
__host__ __device__ float norm3df(float a, float b, float c);
__host__ __device__ double rnorm3d(double a, double b, double c);
__host__ __device__ float rnorm3df(float a, float b, float c);
__host__ __device__ double norm4d(double a, double b, double c, double d);
__host__ __device__ float norm4df(float a, float b, float c, float d);
__host__ __device__ double rnorm4d(double a, double b, double c, double d);
__host__ __device__ float rnorm4df(float a, float b, float c, float d);
__host__ __device__ double norm(int dim, const double *p);
__host__ __device__ float normf(int dim, const float *p);
__host__ __device__ double rnorm(int dim, const double *p);
__host__ __device__ float rnormf(int dim, const float *p);
__host__ __device__ void sincospi(double x, double *sptr, double *cptr);
__host__ __device__ void sincospif(float x, float *sptr, float *cptr);
__HPP_CUDA_MATH_C23 double cospi(double x);
__HPP_CUDA_MATH_C23 float cospif(float x);
__HPP_CUDA_MATH_C23 double sinpi(double x);
__HPP_CUDA_MATH_C23 float sinpif(float x);
// clang-format on
/// @}

/// \name Integer minimum and maximum (CUDA only): host and device
/// @{
__host__ __device__ int min(const int a, const int b);
__host__ __device__ unsigned int umin(const unsigned int a,
                                      const unsigned int b);
__host__ __device__ long long int llmin(const long long int a,
                                        const long long int b);
__host__ __device__ unsigned long long int
ullmin(const unsigned long long int a, const unsigned long long int b);
__host__ __device__ int max(const int a, const int b);
__host__ __device__ unsigned int umax(const unsigned int a,
                                      const unsigned int b);
__host__ __device__ long long int llmax(const long long int a,
                                        const long long int b);
__host__ __device__ unsigned long long int
ullmax(const unsigned long long int a, const unsigned long long int b);
/// @}

} // extern "C"

/// \name abs of the wider integers (C++): device overloads of libstdc++'s
/// @{
__device__ long int abs(long int a);
__device__ long long int abs(long long int a);
/// @}

/// \name min and max of C++ (CUDA only): host and device
/// Mixed signedness converts to unsigned; a float with a double gives a
/// double, as in CUDA.
/// @{
#define __HPP_CUDA_MINMAX(R, A, B)                                             \
  __host__ __device__ R min(const A a, const B b);                             \
  __host__ __device__ R max(const A a, const B b);
__HPP_CUDA_MINMAX(unsigned int, unsigned int, unsigned int)
__HPP_CUDA_MINMAX(unsigned int, int, unsigned int)
__HPP_CUDA_MINMAX(unsigned int, unsigned int, int)
__HPP_CUDA_MINMAX(long int, long int, long int)
__HPP_CUDA_MINMAX(unsigned long int, unsigned long int, unsigned long int)
__HPP_CUDA_MINMAX(unsigned long int, long int, unsigned long int)
__HPP_CUDA_MINMAX(unsigned long int, unsigned long int, long int)
__HPP_CUDA_MINMAX(long long int, long long int, long long int)
__HPP_CUDA_MINMAX(unsigned long long int, unsigned long long int,
                  unsigned long long int)
__HPP_CUDA_MINMAX(unsigned long long int, long long int, unsigned long long int)
__HPP_CUDA_MINMAX(unsigned long long int, unsigned long long int, long long int)
__HPP_CUDA_MINMAX(float, float, float)
__HPP_CUDA_MINMAX(double, double, double)
__HPP_CUDA_MINMAX(double, float, double)
__HPP_CUDA_MINMAX(double, double, float)
#undef __HPP_CUDA_MINMAX
/// @}

/// \name std:: sees the device overloads too
/// @{
namespace std {
// clang-format off
using ::abs;
using ::acos;
using ::acosh;
using ::asin;
using ::asinh;
using ::atan;
using ::atan2;
using ::atanh;
using ::cbrt;
using ::ceil;
using ::copysign;
using ::cos;
using ::cosh;
using ::erf;
using ::erfc;
using ::exp;
using ::exp2;
using ::expm1;
using ::fabs;
using ::fdim;
using ::floor;
using ::fma;
using ::fmax;
using ::fmin;
using ::fmod;
using ::frexp;
using ::hypot;
using ::ilogb;
using ::ldexp;
using ::lgamma;
using ::llrint;
using ::llround;
using ::log;
using ::log10;
using ::log1p;
using ::log2;
using ::logb;
using ::lrint;
using ::lround;
using ::modf;
using ::nan;
using ::nearbyint;
using ::nextafter;
using ::pow;
using ::remainder;
using ::remquo;
using ::rint;
using ::round;
using ::scalbln;
using ::scalbn;
using ::sin;
using ::sinh;
using ::sqrt;
using ::tan;
using ::tanh;
using ::tgamma;
using ::trunc;
// clang-format on
} // namespace std
/// @}

#undef __HPP_CUDA_MATH_C23

#endif // __HPP_CUDA_MATH_FUNCTIONS_H
