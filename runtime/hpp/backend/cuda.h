//===- hpp/backend/cuda.h - CUDA backend of the device runtime ------------===//
//
// Part of hpp-rewrite. Device runtime, CUDA backend (nvcc).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The primitives launch.h and memory.h build on, implemented with the CUDA
/// runtime API. Every call is checked with HPP_CHECK. Works with CUDA 11 to
/// 13 (CUDA 13 takes a cudaMemLocation in cudaMemPrefetchAsync).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CUDA_H
#define HPP_RUNTIME_BACKEND_CUDA_H

/// Set by the backend header; the shared pieces of the runtime need it.
#define HPP_RUNTIME_BACKEND 1

#include "hpp/check.h"
#include "hpp/core/config.h"

#include <cuda_runtime.h>
// After the runtime header, which it needs.
#include <cooperative_groups.h>

#include <cstddef>
#include <tuple>
#include <utility>

namespace hpp {
namespace detail {

/// Reads cudaError_t for HPP_CHECK.
template <> struct BackendErrorTraits<cudaError_t> {
  static bool isSuccess(cudaError_t E) { return E == cudaSuccess; }
  static const char *message(cudaError_t E) { return cudaGetErrorString(E); }
  static void clear() { (void)cudaGetLastError(); }
};

/// The device kernels run on, and what it supports.
struct DeviceTarget {
  int Id = 0;
  bool ConcurrentManagedAccess = false;
};

inline DeviceTarget currentDeviceTarget() {
  DeviceTarget T;
  HPP_CHECK(cudaGetDevice(&T.Id));
  int Concurrent = 0;
  HPP_CHECK(cudaDeviceGetAttribute(&Concurrent,
                                   cudaDevAttrConcurrentManagedAccess, T.Id));
  T.ConcurrentManagedAccess = Concurrent != 0;
  return T;
}

/// \p Bytes (> 0) of zeroed managed memory.
inline void *allocateManagedBytes(std::size_t Bytes) {
  void *P = nullptr;
  HPP_CHECK(cudaMallocManaged(&P, Bytes, cudaMemAttachGlobal));
  try {
    HPP_CHECK(cudaMemset(P, 0, Bytes));
    HPP_CHECK(cudaDeviceSynchronize());
  } catch (...) {
    (void)cudaFree(P);
    throw;
  }
  return P;
}

inline void freeManagedBytes(void *P) { HPP_CHECK(cudaFree(P)); }

/// Migrates managed memory to the launch device ahead of a kernel (stream 0,
/// so it is ordered before the launch).
inline void prefetchToDevice(const DeviceTarget &T, const void *P,
                             std::size_t Bytes) {
#if CUDART_VERSION >= 13000
  cudaMemLocation Location{};
  Location.type = cudaMemLocationTypeDevice;
  Location.id = T.Id;
  HPP_CHECK(cudaMemPrefetchAsync(P, Bytes, Location, 0, 0));
#else
  HPP_CHECK(cudaMemPrefetchAsync(P, Bytes, T.Id, 0));
#endif
}

/// Launches \p Kernel with the range and the converted arguments, then waits
/// for it (parallelFor blocks).
template <class KernelT, class RangeT, class... P, std::size_t... I>
void launchOnBackend(KernelT *Kernel, dim3 Grid, dim3 Block, RangeT &RangeArg,
                     std::tuple<P...> &Args, std::index_sequence<I...>) {
  void *ArgPtrs[] = {static_cast<void *>(&RangeArg),
                     static_cast<void *>(&std::get<I>(Args))...};
  const void *Func = reinterpret_cast<const void *>(Kernel);
  HPP_CHECK(cudaLaunchKernel(Func, Grid, Block, ArgPtrs, 0, 0));
  HPP_CHECK(cudaDeviceSynchronize());
}

/// The warp size device \p DeviceId reports.
inline int queryWarpSize(int DeviceId) {
  int Size = 0;
  HPP_CHECK(cudaDeviceGetAttribute(&Size, cudaDevAttrWarpSize, DeviceId));
  return Size;
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CUDA_H
