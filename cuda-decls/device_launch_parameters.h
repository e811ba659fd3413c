//===- cuda-decls/device_launch_parameters.h - Built-ins --------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's
/// <device_launch_parameters.h>: threadIdx, blockIdx, blockDim, gridDim and
/// warpSize. They are clang's own (__clang_cuda_builtin_vars.h, from clang's
/// resource directory), which clang's CUDA front end knows; this header
/// supplies the uint3 and dim3 they convert to. Not for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_DEVICE_LAUNCH_PARAMETERS_H
#define __HPP_CUDA_DEVICE_LAUNCH_PARAMETERS_H

/// CUDA's include guard, which code tests to see what is included.
#define __DEVICE_LAUNCH_PARAMETERS_H__

#include "vector_types.h"

#include <__clang_cuda_builtin_vars.h>

#endif // __HPP_CUDA_DEVICE_LAUNCH_PARAMETERS_H
