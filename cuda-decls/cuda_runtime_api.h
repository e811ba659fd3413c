//===- cuda-decls/cuda_runtime_api.h - CUDA runtime C API -------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <cuda_runtime_api.h>: the
/// C functions of the runtime API, with CUDA's parameters and default
/// arguments. Not for compiling.
///
/// The functions CUDA also offers to device code (dynamic parallelism:
/// cudaMalloc, cudaGetLastError, cudaMemcpyAsync, ...) are `__host__
/// __device__` here, the others `__host__`. The C++ overloads (templates
/// over the kernel or the pointer type) are in <cuda_runtime.h>.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_RUNTIME_API_H
#define __HPP_CUDA_RUNTIME_API_H

/// CUDA's include guard, which code tests to see what is included.
#define __CUDA_RUNTIME_API_H__

#include "driver_types.h"

#define CUDART_VERSION __HPP_CUDA_DECLS_VERSION

/// Host functions that device code may call too.
#define __HPP_CUDART_HD __host__ __device__

extern "C" {

/// \name Errors
/// @{
__HPP_CUDART_HD cudaError_t cudaGetLastError(void);
__HPP_CUDART_HD cudaError_t cudaPeekAtLastError(void);
__HPP_CUDART_HD const char *cudaGetErrorName(cudaError_t error);
__HPP_CUDART_HD const char *cudaGetErrorString(cudaError_t error);
/// @}

/// \name Devices
/// @{
__host__ cudaError_t cudaDeviceReset(void);
__HPP_CUDART_HD cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
__HPP_CUDART_HD cudaError_t cudaDeviceGetLimit(size_t *pValue,
                                               enum cudaLimit limit);
__host__ cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
/// Deprecated in CUDA 12 (and marked so, as there), removed in CUDA 13.
#define __HPP_CUDART_DEPRECATED __attribute__((deprecated))
__host__ __HPP_CUDART_DEPRECATED cudaError_t cudaThreadSynchronize(void);
__host__ __HPP_CUDART_DEPRECATED cudaError_t
cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__HPP_CUDART_HD __HPP_CUDART_DEPRECATED cudaError_t
cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
__host__ __HPP_CUDART_DEPRECATED cudaError_t
cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);
__HPP_CUDART_HD cudaError_t
cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
__HPP_CUDART_HD cudaError_t cudaGetDeviceCount(int *count);
__HPP_CUDART_HD cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop,
                                                    int device);
__HPP_CUDART_HD cudaError_t cudaDeviceGetAttribute(int *value,
                                                   enum cudaDeviceAttr attr,
                                                   int device);
__host__ cudaError_t cudaChooseDevice(int *device,
                                      const struct cudaDeviceProp *prop);
__host__ cudaError_t cudaSetDevice(int device);
__HPP_CUDART_HD cudaError_t cudaGetDevice(int *device);
__host__ cudaError_t cudaSetDeviceFlags(unsigned int flags);
__host__ cudaError_t cudaGetDeviceFlags(unsigned int *flags);
__host__ cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
                                             int peerDevice);
__host__ cudaError_t cudaDeviceEnablePeerAccess(int peerDevice,
                                                unsigned int flags);
__host__ cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
__host__ cudaError_t cudaDriverGetVersion(int *driverVersion);
__HPP_CUDART_HD cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
/// @}

/// \name Streams
/// @{
__host__ cudaError_t cudaStreamCreate(cudaStream_t *pStream);
__HPP_CUDART_HD cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                                      unsigned int flags);
__HPP_CUDART_HD cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
                                                         unsigned int flags,
                                                         int priority);
__HPP_CUDART_HD cudaError_t cudaStreamGetPriority(cudaStream_t hStream,
                                                  int *priority);
__HPP_CUDART_HD cudaError_t cudaStreamDestroy(cudaStream_t stream);
__HPP_CUDART_HD cudaError_t cudaStreamWaitEvent(cudaStream_t stream,
                                                cudaEvent_t event,
                                                unsigned int flags = 0);
__host__ cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                           cudaStreamCallback_t callback,
                                           void *userData, unsigned int flags);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ cudaError_t cudaStreamQuery(cudaStream_t stream);
__HPP_CUDART_HD cudaError_t
cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length = 0,
                         unsigned int flags = cudaMemAttachSingle);
__host__ cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
                                            enum cudaStreamCaptureMode mode);
__host__ cudaError_t cudaStreamEndCapture(cudaStream_t stream,
                                          cudaGraph_t *pGraph);
__host__ cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
                                        void *userData);
/// @}

/// \name Events
/// @{
__host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
__HPP_CUDART_HD cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
                                                     unsigned int flags);
__HPP_CUDART_HD cudaError_t cudaEventRecord(cudaEvent_t event,
                                            cudaStream_t stream = 0);
__HPP_CUDART_HD cudaError_t cudaEventRecordWithFlags(cudaEvent_t event,
                                                     cudaStream_t stream = 0,
                                                     unsigned int flags = 0);
__host__ cudaError_t cudaEventQuery(cudaEvent_t event);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__HPP_CUDART_HD cudaError_t cudaEventDestroy(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                          cudaEvent_t end);
/// @}

/// \name Kernels: launches, attributes, occupancy
/// `func` is the kernel's address, `(const void *)kernel`; <cuda_runtime.h>
/// has the overloads that take the kernel itself.
/// @{
__host__ cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim,
                                      dim3 blockDim, void **args,
                                      size_t sharedMem, cudaStream_t stream);
__host__ cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                         const void *func, void **args);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                                 dim3 blockDim, void **args,
                                                 size_t sharedMem,
                                                 cudaStream_t stream);
__host__ cudaError_t cudaFuncSetCacheConfig(const void *func,
                                            enum cudaFuncCache cacheConfig);
__HPP_CUDART_HD cudaError_t
cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
__HPP_CUDART_HD cudaError_t cudaFuncSetAttribute(const void *func,
                                                 enum cudaFuncAttribute attr,
                                                 int value);
__HPP_CUDART_HD cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);
__HPP_CUDART_HD cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                       const void *func,
                                                       int blockSize,
                                                       size_t dynamicSMemSize,
                                                       unsigned int flags);
__HPP_CUDART_HD cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, const void *func, int numBlocks, int blockSize);
/// @}

/// \name Memory: allocation
/// @{
__HPP_CUDART_HD cudaError_t cudaMalloc(void **devPtr, size_t size);
__host__ cudaError_t cudaMallocHost(void **ptr, size_t size);
__host__ cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
                                     size_t height);
__HPP_CUDART_HD cudaError_t cudaMallocManaged(
    void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
__host__ cudaError_t cudaMallocAsync(void **devPtr, size_t size,
                                     cudaStream_t hStream);
__HPP_CUDART_HD cudaError_t cudaFree(void *devPtr);
__host__ cudaError_t cudaFreeHost(void *ptr);
__host__ cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream);
__host__ cudaError_t cudaHostAlloc(void **pHost, size_t size,
                                   unsigned int flags);
__host__ cudaError_t cudaHostRegister(void *ptr, size_t size,
                                      unsigned int flags);
__host__ cudaError_t cudaHostUnregister(void *ptr);
__host__ cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost,
                                              unsigned int flags);
__host__ cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
__host__ cudaError_t cudaPointerGetAttributes(
    struct cudaPointerAttributes *attributes, const void *ptr);
/// @}

/// \name Memory: copies and fills
/// @{
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                enum cudaMemcpyKind kind);
__HPP_CUDART_HD cudaError_t cudaMemcpyAsync(void *dst, const void *src,
                                            size_t count,
                                            enum cudaMemcpyKind kind,
                                            cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
                                    int srcDevice, size_t count);
__host__ cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice,
                                         const void *src, int srcDevice,
                                         size_t count, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                                  size_t spitch, size_t width, size_t height,
                                  enum cudaMemcpyKind kind);
__HPP_CUDART_HD cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch,
                                              const void *src, size_t spitch,
                                              size_t width, size_t height,
                                              enum cudaMemcpyKind kind,
                                              cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpyToSymbol(
    const void *symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyFromSymbol(
    void *dst, const void *symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaMemcpyToSymbolAsync(const void *symbol,
                                             const void *src, size_t count,
                                             size_t offset,
                                             enum cudaMemcpyKind kind,
                                             cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
                                               size_t count, size_t offset,
                                               enum cudaMemcpyKind kind,
                                               cudaStream_t stream = 0);
__host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
__host__ cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
__host__ cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__HPP_CUDART_HD cudaError_t cudaMemsetAsync(void *devPtr, int value,
                                            size_t count,
                                            cudaStream_t stream = 0);
__host__ cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value,
                                  size_t width, size_t height);
__HPP_CUDART_HD cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch,
                                              int value, size_t width,
                                              size_t height,
                                              cudaStream_t stream = 0);
/// @}

/// \name Graphs (the calls that capture, instantiate and launch one)
/// @{
__host__ cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
__host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
                                          cudaGraph_t graph,
                                          unsigned long long flags = 0);
__host__ cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec,
                                     cudaStream_t stream);
__host__ cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
__host__ cudaError_t cudaGraphDestroy(cudaGraph_t graph);
/// @}

/// \name Profiler control (<cuda_profiler_api.h>)
/// @{
__host__ cudaError_t cudaProfilerStart(void);
__host__ cudaError_t cudaProfilerStop(void);
/// @}

} // extern "C"

/// \name Unified-memory hints of CUDA 12 and CUDA 13
/// CUDA 12 names the destination by device number (cudaCpuDeviceId for the
/// host); CUDA 13 by a cudaMemLocation and adds flags. Both are declared,
/// overloaded (C++ linkage), so code written for either release parses.
/// @{
__host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                          int dstDevice,
                                          cudaStream_t stream = 0);
__host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                          struct cudaMemLocation location,
                                          unsigned int flags,
                                          cudaStream_t stream = 0);
__host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                   enum cudaMemoryAdvise advice, int device);
__host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                   enum cudaMemoryAdvise advice,
                                   struct cudaMemLocation location);
/// @}

#endif // __HPP_CUDA_RUNTIME_API_H
