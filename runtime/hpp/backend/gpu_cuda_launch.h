//===- hpp/backend/gpu_cuda_launch.h - launchCuda, GPUs ---------*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, GPU backends (nvcc; hipcc, HIP 5.2
// to ROCm 7.x) (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Port mode's launches and dynamic shared memory on CUDA and HIP:
///  - hpp::launchCuda is `Kernel<<<Grid, Block, Shared, Stream>>>(Args...)`
///    with the arguments already converted to the kernel's parameter
///    types; besides, it stores its caller's file and line in a thread-local
///    variable (two stores), which hpp::lastCudaErrorPlace() returns: on a
///    GPU the runtime's own error state is the driver's, and the place of
///    the last launch is what a report of an asynchronous error can name;
///  - hpp::launchCudaCooperative is cudaLaunchCooperativeKernel with the
///    argument addresses;
///  - hpp::dynamicShared<T>() is one `extern __shared__` byte array, aligned
///    to 16 bytes, as T * (CUDA and HIP alias every such array of a kernel
///    to its dynamic shared memory);
///  - on CUDA, whichever form of cudaMemPrefetchAsync the installed CUDA
///    lacks: CUDA 12's (a device number) on CUDA 13, CUDA 13's (a
///    cudaMemLocation and flags) on CUDA 11.2 to 12.x.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_CUDA_LAUNCH_H
#define HPP_RUNTIME_BACKEND_GPU_CUDA_LAUNCH_H

#include "hpp/cuda_api_support.h"

#include <cstddef>
#include <string>

namespace hpp {
namespace detail {
/// The latest hpp::launchCuda / launchCudaCooperative of this thread.
inline thread_local CudaPlace LastCudaLaunch;
} // namespace detail

/// On a GPU: the place of this thread's latest launch (see the file
/// comment); empty before the first.
inline CudaPlace lastCudaErrorPlace() { return detail::LastCudaLaunch; }

/// `Kernel<<<Grid, Block, SharedBytes, Stream>>>(Args...)`.
template <class... P>
void launchCuda(void (*Kernel)(P...), CudaGrid Grid, dim3 Block,
                std::size_t SharedBytes, cudaStream_t Stream,
                typename detail::Identity<P>::type... Args) {
  detail::LastCudaLaunch = {"kernel launch", Grid.File, Grid.Line};
  Kernel<<<Grid.Dims, Block, SharedBytes, Stream>>>(Args...);
}

/// cudaLaunchCooperativeKernel of \p Kernel with \p Args; returns its error.
template <class... P>
cudaError_t launchCudaCooperative(void (*Kernel)(P...), CudaGrid Grid,
                                  dim3 Block, std::size_t SharedBytes,
                                  cudaStream_t Stream,
                                  typename detail::Identity<P>::type... Args) {
  detail::LastCudaLaunch = {"cooperative kernel launch", Grid.File, Grid.Line};
  void *ArgPtrs[sizeof...(P) + 1] = {static_cast<void *>(&Args)...};
  return cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(Kernel),
                                     Grid.Dims, Block, ArgPtrs, SharedBytes,
                                     Stream);
}

/// The block's dynamic shared memory (`extern __shared__ T name[]`).
template <class T> __device__ T *dynamicShared() {
  extern __shared__
      __attribute__((aligned(16))) unsigned char hppDynamicShared[];
  return reinterpret_cast<T *>(hppDynamicShared);
}

namespace detail {
/// For an error report at \p File : \p Line: the latest launch, the likely
/// source of an asynchronous error.
inline std::string cudaPlaceNote(cudaError_t, const char *, int) {
  if (!LastCudaLaunch)
    return std::string();
  return " (the last kernel launch was at " + LastCudaLaunch.str() + ")";
}
} // namespace detail
} // namespace hpp

#if defined(HPP_BACKEND_CUDA) && CUDART_VERSION >= 13000
/// CUDA 12's cudaMemPrefetchAsync (to device \p Device, or cudaCpuDeviceId)
/// over CUDA 13's.
inline cudaError_t cudaMemPrefetchAsync(const void *Ptr, size_t Count,
                                        int Device, cudaStream_t Stream = 0) {
  cudaMemLocation Location{};
  Location.type = Device == cudaCpuDeviceId ? cudaMemLocationTypeHost
                                            : cudaMemLocationTypeDevice;
  Location.id = Device == cudaCpuDeviceId ? 0 : Device;
  return cudaMemPrefetchAsync(Ptr, Count, Location, 0, Stream);
}
#elif defined(HPP_BACKEND_CUDA) && CUDART_VERSION >= 11020
/// CUDA 13's cudaMemPrefetchAsync (to \p Location; \p Flags must be 0)
/// over CUDA 12's.
inline cudaError_t cudaMemPrefetchAsync(const void *Ptr, size_t Count,
                                        cudaMemLocation Location,
                                        unsigned Flags,
                                        cudaStream_t Stream = 0) {
  if (Flags != 0)
    return cudaErrorInvalidValue;
  return cudaMemPrefetchAsync(Ptr, Count,
                              Location.type == cudaMemLocationTypeDevice
                                  ? Location.id
                                  : cudaCpuDeviceId,
                              Stream);
}
#endif

#endif // HPP_RUNTIME_BACKEND_GPU_CUDA_LAUNCH_H
