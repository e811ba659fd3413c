//===- cuda-decls/cuda.h - CUDA driver API (minimal) ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <cuda.h>, kept minimal:
/// CUDA_VERSION, the handles and the common results and device attributes
/// of the driver API, and its calls to initialize, query devices, manage
/// contexts, memory, modules, streams and events, and launch. Not for
/// compiling.
///
/// Unlike CUDA's, it includes <cuda_runtime.h>: nvcc includes that in every
/// CUDA source anyway, and code that includes <cuda.h> for CUDA_VERSION
/// often calls the runtime API next.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_H
#define __HPP_CUDA_H

/// CUDA's include guard, which code tests to see what is included.
#define __cuda_cuda_h__

#include "cuda_runtime.h"

#define CUDA_VERSION __HPP_CUDA_DECLS_VERSION

/// \name Handles
/// @{
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUctxCreateParams_st CUctxCreateParams;
/// @}

/// The status every driver call returns (the common values).
typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_FILE_NOT_FOUND = 301,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999
} CUresult;

/// What cuDeviceGetAttribute reads (the common ones; the values are those
/// of the runtime's cudaDeviceAttr).
typedef enum CUdevice_attribute_enum {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
} CUdevice_attribute;

extern "C" {

/// \name Initialization, versions, errors and devices
/// @{
__host__ CUresult cuInit(unsigned int Flags);
__host__ CUresult cuDriverGetVersion(int *driverVersion);
__host__ CUresult cuGetErrorName(CUresult error, const char **pStr);
__host__ CUresult cuGetErrorString(CUresult error, const char **pStr);
__host__ CUresult cuDeviceGet(CUdevice *device, int ordinal);
__host__ CUresult cuDeviceGetCount(int *count);
__host__ CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
__host__ CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib,
                                       CUdevice dev);
__host__ CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev);
/// @}

/// \name Contexts (cuCtxCreate as in CUDA 12; CUDA 13's form is below)
/// @{
__host__ CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags,
                              CUdevice dev);
__host__ CUresult cuCtxDestroy(CUcontext ctx);
__host__ CUresult cuCtxSynchronize(void);
__host__ CUresult cuCtxGetCurrent(CUcontext *pctx);
__host__ CUresult cuCtxSetCurrent(CUcontext ctx);
__host__ CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
__host__ CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
/// @}

/// \name Memory
/// @{
__host__ CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
__host__ CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
                                    unsigned int flags);
__host__ CUresult cuMemFree(CUdeviceptr dptr);
__host__ CUresult cuMemGetInfo(size_t *free, size_t *total);
__host__ CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost,
                               size_t ByteCount);
__host__ CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice,
                               size_t ByteCount);
__host__ CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                               size_t ByteCount);
__host__ CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N);
__host__ CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N);
/// @}

/// \name Modules and launches
/// @{
__host__ CUresult cuModuleLoad(CUmodule *module, const char *fname);
__host__ CUresult cuModuleLoadData(CUmodule *module, const void *image);
__host__ CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
                                      const char *name);
__host__ CUresult cuModuleUnload(CUmodule hmod);
__host__ CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
                                 unsigned int gridDimY, unsigned int gridDimZ,
                                 unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ,
                                 unsigned int sharedMemBytes, CUstream hStream,
                                 void **kernelParams, void **extra);
/// @}

/// \name Streams and events
/// @{
__host__ CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags);
__host__ CUresult cuStreamSynchronize(CUstream hStream);
__host__ CUresult cuStreamDestroy(CUstream hStream);
__host__ CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags);
__host__ CUresult cuEventRecord(CUevent hEvent, CUstream hStream);
__host__ CUresult cuEventSynchronize(CUevent hEvent);
__host__ CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart,
                                     CUevent hEnd);
__host__ CUresult cuEventDestroy(CUevent hEvent);
/// @}

} // extern "C"

/// cuCtxCreate of CUDA 13, which takes creation parameters (may be null).
__host__ CUresult cuCtxCreate(CUcontext *pctx,
                              CUctxCreateParams *ctxCreateParams,
                              unsigned int flags, CUdevice dev);

#endif // __HPP_CUDA_H
