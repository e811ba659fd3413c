//===- cuda-decls/cuda_profiler_api.h - CUDA profiler control ---*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <cuda_profiler_api.h>:
/// cudaProfilerStart and cudaProfilerStop, declared in <cuda_runtime_api.h>.
/// Not for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_FORWARD_CUDA_PROFILER_API_H
#define __HPP_CUDA_FORWARD_CUDA_PROFILER_API_H

#include "cuda_runtime_api.h"

#endif // __HPP_CUDA_FORWARD_CUDA_PROFILER_API_H
