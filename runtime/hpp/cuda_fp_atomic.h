//===- hpp/cuda_fp_atomic.h - Fast float atomics, coarse memory -*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime: CUDA (nvcc), HIP (hipcc, HIP 5.2 to
// ROCm 7.x) and CPU backends (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::unsafeAtomicAdd(float *, float) and (double *, double): what
/// hpp-rewrite --port makes of `atomicAdd` on a float or a double whose
/// memory it knows is coarse-grained (from cudaMalloc; the rule
/// hpp-cuda-fp-atomic, docs/rules.md). Each returns the old value.
///  - CUDA: atomicAdd itself (the hardware's floating-point add);
///  - HIP: HIP's unsafeAtomicAdd, the hardware's floating-point atomic
///    (gfx90a), which is right on coarse-grained memory (hipMalloc's) and
///    much faster than the compare-and-swap loop hipcc makes of atomicAdd
///    by default, but which fine-grained memory (host-pinned, managed)
///    silently drops on some devices: the reason the tool writes it only
///    where the memory is known to come from cudaMalloc;
///  - CPU: the backend's atomicAdd (backend/cpu_cuda_atomics.h).
/// No other overload: half and vector types keep atomicAdd.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_CUDA_FP_ATOMIC_H
#define HPP_RUNTIME_CUDA_FP_ATOMIC_H

#include "hpp/core/config.h"

namespace hpp {

/// Adds \p Value to `*Address` atomically; returns the old value. Only for
/// coarse-grained memory (cudaMalloc's): on AMD, fine-grained memory may
/// drop the update.
HPP_DEVICE inline float unsafeAtomicAdd(float *Address, float Value) {
#if defined(HPP_BACKEND_HIP)
  return ::unsafeAtomicAdd(Address, Value);
#else
  return ::atomicAdd(Address, Value);
#endif
}

/// Adds \p Value to `*Address` atomically; returns the old value. Only for
/// coarse-grained memory (cudaMalloc's): on AMD, fine-grained memory may
/// drop the update.
HPP_DEVICE inline double unsafeAtomicAdd(double *Address, double Value) {
#if defined(HPP_BACKEND_HIP)
  return ::unsafeAtomicAdd(Address, Value);
#else
  return ::atomicAdd(Address, Value);
#endif
}

} // namespace hpp

#endif // HPP_RUNTIME_CUDA_FP_ATOMIC_H
