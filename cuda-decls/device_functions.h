//===- cuda-decls/device_functions.h - CUDA device intrinsics ---*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <device_functions.h>,
/// which CUDA calls internal (nvcc warns when it is included) but older
/// code includes: the device intrinsics, math library and atomics, that is
/// all of <cuda_runtime.h>, without the warning.
/// Not for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_FORWARD_DEVICE_FUNCTIONS_H
#define __HPP_CUDA_FORWARD_DEVICE_FUNCTIONS_H

#include "cuda_runtime.h"

#endif // __HPP_CUDA_FORWARD_DEVICE_FUNCTIONS_H
