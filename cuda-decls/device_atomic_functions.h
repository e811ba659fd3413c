//===- cuda-decls/device_atomic_functions.h - CUDA atomics ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's
/// <device_atomic_functions.h>: the atomic functions, that is all of
/// <cuda_runtime.h>.
/// Not for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_FORWARD_DEVICE_ATOMIC_FUNCTIONS_H
#define __HPP_CUDA_FORWARD_DEVICE_ATOMIC_FUNCTIONS_H

#include "cuda_runtime.h"

#endif // __HPP_CUDA_FORWARD_DEVICE_ATOMIC_FUNCTIONS_H
