//===- hpp/cuda_mem_location.h - CUDA 13's cudaMemLocation ------*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, the HIP and CPU backends
// (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA 13's prefetch target, which cudaMemPrefetchAsync takes: HIP has no
/// such type, and the CPU backend has none of CUDA's, so both take the
/// runtime's (the CUDA backend has the real one). One definition, with
/// CUDA's enumerators and values.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_CUDA_MEM_LOCATION_H
#define HPP_RUNTIME_CUDA_MEM_LOCATION_H

#if defined(HPP_BACKEND_CUDA)
#error "the CUDA backend has CUDA's own cudaMemLocation"
#endif

/// Where memory is prefetched to (CUDA 13's cudaMemPrefetchAsync).
enum cudaMemLocationType : int {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4,
};
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};

#endif // HPP_RUNTIME_CUDA_MEM_LOCATION_H
