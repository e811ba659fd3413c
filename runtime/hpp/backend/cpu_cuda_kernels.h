//===- hpp/backend/cpu_cuda_kernels.h - Kernel queries, CPU -----*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA calls about a kernel on the CPU backend:
///  - cudaFuncSetAttribute: cudaFuncAttributeMaxDynamicSharedMemorySize is
///    recorded (up to the opt-in limit, 227 KiB) and bounds the kernel's
///    later launches; cudaFuncAttributePreferredSharedMemoryCarveout is
///    recorded (-1 to 100); anything else is cudaErrorInvalidValue;
///  - cudaFuncGetAttributes: what the backend knows of every kernel (1024
///    threads, no static shared, constant or local memory it could
///    measure) and what was recorded;
///  - cudaOccupancyMaxActiveBlocksPerMultiprocessor and
///    cudaOccupancyMaxPotentialBlockSize, on one model (cpu_cuda_launch.h,
///    cudaBlocksPerSm: 2048 threads in whole warps of the simulated width,
///    32 blocks and 228 KiB of shared memory, 1 KiB of it reserved per
///    block, per multiprocessor), the model that bounds cooperative
///    launches: a grid of the potential block size's minimum grid size,
///    or of the active blocks per multiprocessor times the
///    multiprocessors, is a cooperative launch that fits.
/// Each takes the kernel itself (which the backend then can also launch by
/// its address: cpu_cuda_launch.h) or its address as `const void *`.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_CUDA_KERNELS_H
#define HPP_RUNTIME_BACKEND_CPU_CUDA_KERNELS_H

#include "hpp/backend/cpu_cuda_launch.h"

namespace hpp {
namespace detail {

inline cudaError_t setFuncAttribute(const void *Kernel, cudaFuncAttribute Attr,
                                    int Value, const char *File, int Line) {
  const char *Call = "cudaFuncSetAttribute";
  const cudaDeviceProp &P = cudaCpuDevice(File, Line);
  if (!Kernel)
    return cudaFail(cudaErrorInvalidDeviceFunction, Call, File, Line);
  if (Attr == cudaFuncAttributeMaxDynamicSharedMemorySize && Value >= 0 &&
      std::size_t(Value) <= P.sharedMemPerBlockOptin) {
    CudaKernels::get().update(
        Kernel, [Value](CudaKernels::Info &I) { I.MaxDynamicShared = Value; });
    return cudaSuccess;
  }
  if (Attr == cudaFuncAttributePreferredSharedMemoryCarveout && Value >= -1 &&
      Value <= 100) {
    CudaKernels::get().update(
        Kernel, [Value](CudaKernels::Info &I) { I.Carveout = Value; });
    return cudaSuccess;
  }
  return cudaFail(cudaErrorInvalidValue, Call, File, Line);
}

inline cudaError_t getFuncAttributes(cudaFuncAttributes *Out,
                                     const void *Kernel, const char *File,
                                     int Line) {
  const char *Call = "cudaFuncGetAttributes";
  if (!Out)
    return cudaFail(cudaErrorInvalidValue, Call, File, Line);
  if (!Kernel)
    return cudaFail(cudaErrorInvalidDeviceFunction, Call, File, Line);
  const cudaDeviceProp &P = cudaCpuDevice(File, Line);
  const CudaKernels::Info I = CudaKernels::get().find(Kernel);
  *Out = cudaFuncAttributes();
  Out->maxThreadsPerBlock = P.maxThreadsPerBlock;
  Out->numRegs = 32;
  Out->ptxVersion = Out->binaryVersion = P.major * 10 + P.minor;
  Out->maxDynamicSharedSizeBytes = I.MaxDynamicShared;
  Out->preferredShmemCarveout = I.Carveout;
  return cudaSuccess;
}

inline cudaError_t maxActiveBlocks(int *Blocks, const void *Kernel,
                                   int BlockSize, std::size_t Shared,
                                   const char *File, int Line) {
  const char *Call = "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
  if (!Blocks || BlockSize <= 0)
    return cudaFail(cudaErrorInvalidValue, Call, File, Line);
  if (!Kernel)
    return cudaFail(cudaErrorInvalidDeviceFunction, Call, File, Line);
  *Blocks = cudaBlocksPerSm(cudaCpuDevice(File, Line), BlockSize, Shared);
  return cudaSuccess;
}

/// The block size (a multiple of the warp width, at most \p Limit if not
/// 0) with the most resident threads, the larger one on a tie, and the
/// grid that fills the device with it.
inline cudaError_t maxPotentialBlockSize(int *MinGrid, int *BlockSize,
                                         const void *Kernel, std::size_t Shared,
                                         int Limit, const char *File,
                                         int Line) {
  const char *Call = "cudaOccupancyMaxPotentialBlockSize";
  if (!MinGrid || !BlockSize || Limit < 0)
    return cudaFail(cudaErrorInvalidValue, Call, File, Line);
  if (!Kernel)
    return cudaFail(cudaErrorInvalidDeviceFunction, Call, File, Line);
  const cudaDeviceProp &P = cudaCpuDevice(File, Line);
  const int Most =
      Limit ? std::min(Limit, P.maxThreadsPerBlock) : P.maxThreadsPerBlock;
  int Best = 0, BestBlocks = 0;
  for (int Size = Most / P.warpSize * P.warpSize; Size > 0;
       Size -= P.warpSize) {
    const int Blocks = cudaBlocksPerSm(P, Size, Shared);
    if (Blocks * Size > BestBlocks * Best) {
      Best = Size;
      BestBlocks = Blocks;
    }
  }
  *BlockSize = Best;
  *MinGrid = BestBlocks * P.multiProcessorCount;
  return cudaSuccess;
}

} // namespace detail
} // namespace hpp

template <class... P>
cudaError_t cudaFuncSetAttribute(void (*Kernel)(P...), cudaFuncAttribute Attr,
                                 int Value, HPP_CALLER_LOCATION) {
  return hpp::detail::setFuncAttribute(hpp::detail::registerKernel(Kernel),
                                       Attr, Value, File, Line);
}
inline cudaError_t cudaFuncSetAttribute(const void *Kernel,
                                        cudaFuncAttribute Attr, int Value,
                                        HPP_CALLER_LOCATION) {
  return hpp::detail::setFuncAttribute(Kernel, Attr, Value, File, Line);
}

template <class... P>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *Attributes,
                                  void (*Kernel)(P...), HPP_CALLER_LOCATION) {
  return hpp::detail::getFuncAttributes(
      Attributes, hpp::detail::registerKernel(Kernel), File, Line);
}
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *Attributes,
                                         const void *Kernel,
                                         HPP_CALLER_LOCATION) {
  return hpp::detail::getFuncAttributes(Attributes, Kernel, File, Line);
}

template <class... P>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *Blocks, void (*Kernel)(P...), int BlockSize, std::size_t SharedBytes,
    HPP_CALLER_LOCATION) {
  return hpp::detail::maxActiveBlocks(Blocks,
                                      hpp::detail::registerKernel(Kernel),
                                      BlockSize, SharedBytes, File, Line);
}
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *Blocks, const void *Kernel, int BlockSize, std::size_t SharedBytes,
    HPP_CALLER_LOCATION) {
  return hpp::detail::maxActiveBlocks(Blocks, Kernel, BlockSize, SharedBytes,
                                      File, Line);
}

template <class... P>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *MinGrid, int *BlockSize,
                                               void (*Kernel)(P...),
                                               std::size_t SharedBytes = 0,
                                               int BlockSizeLimit = 0,
                                               HPP_CALLER_LOCATION) {
  return hpp::detail::maxPotentialBlockSize(
      MinGrid, BlockSize, hpp::detail::registerKernel(Kernel), SharedBytes,
      BlockSizeLimit, File, Line);
}
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(
    int *MinGrid, int *BlockSize, const void *Kernel,
    std::size_t SharedBytes = 0, int BlockSizeLimit = 0, HPP_CALLER_LOCATION) {
  return hpp::detail::maxPotentialBlockSize(
      MinGrid, BlockSize, Kernel, SharedBytes, BlockSizeLimit, File, Line);
}

#endif // HPP_RUNTIME_BACKEND_CPU_CUDA_KERNELS_H
