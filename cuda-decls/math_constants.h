//===- cuda-decls/math_constants.h - CUDA math constants --------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <math_constants.h>: the
/// CUDART_ constants, single precision (_F) and double. Not for compiling.
///
/// As in CUDA, the infinities, NaNs and other special values are bit
/// patterns through __int_as_float and __longlong_as_double, device
/// functions: like nvcc, clang rejects them in host code.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_MATH_CONSTANTS_H
#define __HPP_CUDA_MATH_CONSTANTS_H

/// CUDA's include guard, which code tests to see what is included.
#define __MATH_CONSTANTS_H__

#include "cuda_runtime.h"

/// \name Single precision
/// @{
#define CUDART_INF_F __int_as_float(0x7f800000U)
#define CUDART_NAN_F __int_as_float(0x7fffffffU)
#define CUDART_MIN_DENORM_F __int_as_float(0x00000001U)
#define CUDART_MAX_NORMAL_F __int_as_float(0x7f7fffffU)
#define CUDART_NEG_ZERO_F __int_as_float(0x80000000U)
#define CUDART_ZERO_F 0.0F
#define CUDART_ONE_F 1.0F
#define CUDART_SQRT_HALF_F 7.071067812e-01F
#define CUDART_SQRT_TWO_F 1.414213562e+00F
#define CUDART_THIRD_F 3.333333333e-01F
#define CUDART_PIO4_F 7.853981634e-01F
#define CUDART_PIO2_F 1.570796327e+00F
#define CUDART_3PIO4_F 2.356194490e+00F
#define CUDART_2_OVER_PI_F 6.366197724e-01F
#define CUDART_SQRT_2_OVER_PI_F 7.978845608e-01F
#define CUDART_PI_F 3.141592654e+00F
#define CUDART_L2E_F 1.442695041e+00F
#define CUDART_L2T_F 3.321928095e+00F
#define CUDART_LG2_F 3.010299957e-01F
#define CUDART_LGE_F 4.342944819e-01F
#define CUDART_LN2_F 6.931471806e-01F
#define CUDART_LNT_F 2.302585093e+00F
#define CUDART_LNPI_F 1.144729886e+00F
#define CUDART_TWO_TO_M126_F 1.175494351e-38F
#define CUDART_TWO_TO_126_F 8.507059173e+37F
#define CUDART_NORM_HUGE_F 3.402823466e+38F
#define CUDART_TWO_TO_23_F 8388608.0F
#define CUDART_TWO_TO_24_F 16777216.0F
#define CUDART_TWO_TO_31_F 2147483648.0F
#define CUDART_TWO_TO_32_F 4294967296.0F
/// @}

/// \name Double precision
/// @{
#define CUDART_INF __longlong_as_double(0x7ff0000000000000ULL)
#define CUDART_NAN __longlong_as_double(0xfff8000000000000ULL)
#define CUDART_NEG_ZERO __longlong_as_double(0x8000000000000000ULL)
#define CUDART_MIN_DENORM __longlong_as_double(0x0000000000000001ULL)
#define CUDART_ZERO 0.0
#define CUDART_ONE 1.0
#define CUDART_SQRT_TWO 1.41421356237309515e+00
#define CUDART_SQRT_HALF 7.07106781186547573e-01
#define CUDART_THIRD 3.33333333333333315e-01
#define CUDART_TWOTHIRD 6.66666666666666630e-01
#define CUDART_PIO4 7.85398163397448279e-01
#define CUDART_PIO2 1.57079632679489656e+00
#define CUDART_3PIO4 2.35619449019234484e+00
#define CUDART_2_OVER_PI 6.36619772367581382e-01
#define CUDART_PI 3.14159265358979312e+00
#define CUDART_SQRT_2PI 2.50662827463100024e+00
#define CUDART_SQRT_PIO2 1.25331413731550012e+00
#define CUDART_SQRT_2OPI 7.97884560802865406e-01
#define CUDART_L2E 1.44269504088896339e+00
#define CUDART_L2T 3.32192809488736218e+00
#define CUDART_LG2 3.01029995663981198e-01
#define CUDART_LGE 4.34294481903251817e-01
#define CUDART_LN2 6.93147180559945286e-01
#define CUDART_LNT 2.30258509299404590e+00
#define CUDART_LNPI 1.14472988584940016e+00
#define CUDART_TWO_TO_23 8388608.0
#define CUDART_TWO_TO_52 4503599627370496.0
#define CUDART_TWO_TO_53 9007199254740992.0
#define CUDART_TWO_TO_54 18014398509481984.0
#define CUDART_TWO_TO_M54 5.55111512312578270e-17
#define CUDART_TWO_TO_M1022 2.22507385850720138e-308
/// @}

#endif // __HPP_CUDA_MATH_CONSTANTS_H
