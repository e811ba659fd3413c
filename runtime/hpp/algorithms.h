//===- hpp/algorithms.h - The runtime's performance kernels ---------------===//
//
// Part of hpp-rewrite. Device runtime: CUDA, HIP and CPU backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// reduce, inclusiveScan, exclusiveScan, select and histogram
/// (hpp/core/algorithms.h): on the CPU backend the reference
/// implementations, on a GPU the kernels of backend/gpu_algorithms.h.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_ALGORITHMS_H
#define HPP_RUNTIME_ALGORITHMS_H

#include "hpp/core/config.h"

#if defined(HPP_BACKEND_HIP) || defined(HPP_BACKEND_CUDA)
#include "hpp/backend/gpu_algorithms.h"
#endif
#include "hpp/core/algorithms.h"

#endif // HPP_RUNTIME_ALGORITHMS_H
