//===- cuda-decls/math_functions.h - CUDA math library ----------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <math_functions.h>,
/// which CUDA calls internal (nvcc warns when it is included) but older
/// code includes: the math library, that is all of <cuda_runtime.h>,
/// without the warning.
/// Not for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_FORWARD_MATH_FUNCTIONS_H
#define __HPP_CUDA_FORWARD_MATH_FUNCTIONS_H

#include "cuda_runtime.h"

#endif // __HPP_CUDA_FORWARD_MATH_FUNCTIONS_H
