//===- cuda-decls/cuda_runtime.h - CUDA runtime and device API --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <cuda_runtime.h>: what a
/// CUDA source sees, as under nvcc (which includes this header in every
/// .cu file; the tool should pass `-include cuda_runtime.h` to do the
/// same). Not for compiling.
///
/// It brings in the runtime C API (<cuda_runtime_api.h>), the vector types
/// and their make_ functions, the built-in variables, the device intrinsics,
/// warp functions, atomics and math library, then declares the kernel
/// launch configuration that `<<<...>>>` calls and the C++ overloads of the
/// runtime API (the templates over a kernel or a pointer type).
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_RUNTIME_H
#define __HPP_CUDA_RUNTIME_H

/// CUDA's include guard, which code tests to see what is included.
#define __CUDA_RUNTIME_H__

#include "__hpp_cuda_decls.h"
#include "cuda_runtime_api.h"
#include "device_launch_parameters.h"
#include "vector_functions.h"

#include "__hpp_cuda_atomic_functions.h"
#include "__hpp_cuda_device_functions.h"
#include "__hpp_cuda_math_functions.h"
#include "__hpp_cuda_warp_functions.h"

/// \name The launch configuration of `kernel<<<grid, block, shmem, stream>>>`
/// clang turns a launch into a call of one of these with the <<<>>>
/// arguments (the missing ones defaulted), and reports an undeclared
/// identifier without it. Which one depends on the CUDA version clang
/// assumes: with a CUDA installation it finds (sdk-version 9.2 and later),
/// __cudaPushCallConfiguration; with none, as when parsing with these
/// declarations and -nocudainc on a machine without CUDA, the pre-9.2
/// cudaConfigureCall. Both are declared, host and device (device code
/// launches kernels with dynamic parallelism).
/// @{
extern "C" __host__ __device__ unsigned
__cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim = 1,
                            size_t sharedMem = 0,
                            struct CUstream_st *stream = 0);
extern "C" __host__ __device__ cudaError_t cudaConfigureCall(
    dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
/// @}

/// \name C++ overloads: allocation into a typed pointer
/// `cudaMalloc(&p, n)` with `float *p` needs no cast.
/// @{
template <class T> __host__ cudaError_t cudaMalloc(T **devPtr, size_t size);
__host__ cudaError_t cudaMallocHost(void **ptr, size_t size,
                                    unsigned int flags);
template <class T>
__host__ cudaError_t cudaMallocHost(T **ptr, size_t size,
                                    unsigned int flags = 0);
template <class T>
__host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags);
template <class T>
__host__ cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost,
                                              unsigned int flags);
template <class T>
__host__ cudaError_t cudaMallocManaged(
    T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
template <class T>
__host__ cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width,
                                     size_t height);
__host__ cudaError_t cudaMallocAsync(void **ptr, size_t size,
                                     cudaMemPool_t memPool,
                                     cudaStream_t stream);
template <class T>
__host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream);
template <class T>
__host__ cudaError_t cudaMallocAsync(T **ptr, size_t size,
                                     cudaMemPool_t memPool,
                                     cudaStream_t stream);
template <class T>
__host__ cudaError_t
cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr, size_t length = 0,
                         unsigned int flags = cudaMemAttachSingle);
/// @}

/// \name C++ overloads: symbols (`__device__` and `__constant__` variables)
/// The symbol itself, not its address: `cudaMemcpyToSymbol(c, &h, n)`.
/// @{
template <class T>
__host__ cudaError_t cudaMemcpyToSymbol(
    const T &symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T>
__host__ cudaError_t cudaMemcpyToSymbolAsync(
    const T &symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0);
template <class T>
__host__ cudaError_t cudaMemcpyFromSymbol(
    void *dst, const T &symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T>
__host__ cudaError_t cudaMemcpyFromSymbolAsync(
    void *dst, const T &symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0);
template <class T>
__host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol);
template <class T>
__host__ cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol);
/// @}

/// \name C++ overloads: events
/// @{
__host__ cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags);
/// @}

/// \name C++ overloads: kernels, by the kernel itself
/// @{
template <class T>
__host__ cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim,
                                      void **args, size_t sharedMem = 0,
                                      cudaStream_t stream = 0);
template <class T>
__host__ cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim,
                                                 dim3 blockDim, void **args,
                                                 size_t sharedMem = 0,
                                                 cudaStream_t stream = 0);
template <class... ExpTypes, class... ActTypes>
__host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                        void (*kernel)(ExpTypes...),
                                        ActTypes &&...args);
template <class... ActTypes>
__host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                        const cudaKernel_t kernel,
                                        ActTypes &&...args);
template <class T>
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                           T *entry);
template <class T>
__host__ cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr,
                                          int value);
template <class T>
__host__ cudaError_t cudaFuncSetCacheConfig(T *func,
                                            enum cudaFuncCache cacheConfig);
template <class T>
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize);
template <class T>
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags);
template <class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(
    int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0);
template <class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(
    int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0, unsigned int flags = 0);
template <class UnaryFunction, class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, T func,
    UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0);
template <class UnaryFunction, class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func,
    UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = 0);
template <class T>
__host__ cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, T *func, int numBlocks, int blockSize);
/// @}

#endif // __HPP_CUDA_RUNTIME_H
