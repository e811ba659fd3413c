//===- hpp/backend/hip_cuda_api.h - CUDA names over HIP ---------*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, HIP backend (hipcc, HIP 5.2 to ROCm
// 7.x) (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA runtime API's names on HIP, in the global namespace, as port-mode
/// code spells them: types as aliases of HIP's (cudaError_t is hipError_t,
/// cudaStream_t hipStream_t, cudaDeviceProp hipDeviceProp_t, ...),
/// enumerators and flags as constants of HIP's values (the error codes and
/// device attributes from hpp/cuda_errors.def and
/// hpp/cuda_device_attributes.def), and the calls as inline functions that
/// forward to HIP's (templates where CUDA's C++ API has templates:
/// cudaMalloc(T **, size_t), the symbol copies, the kernel queries). Only
/// names present from HIP 5.2 to ROCm 7.x are used. Besides:
///  - cudaGetErrorString and cudaGetErrorName return CUDA's texts and names
///    for the errors of the table (HIP's own for the others), so that a
///    ported program prints the same words on every backend;
///  - cudaMemLocation and its types are the runtime's (HIP has no such
///    CUDA 13 form), and cudaMemPrefetchAsync takes both forms;
///  - the atomics and the cache-hinted loads and stores HIP 5.x lacks.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_HIP_CUDA_API_H
#define HPP_RUNTIME_BACKEND_HIP_CUDA_API_H

#include "hpp/cuda_api_support.h"
#include "hpp/cuda_mem_location.h"

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

//===----------------------------------------------------------------------===//
// Types, enumerators, flags
//===----------------------------------------------------------------------===//

using cudaError_t = hipError_t;
#define HPP_CUDA_ERROR(Name, Value, HipName, Text)                             \
  constexpr cudaError_t Name = HipName;
#include "hpp/cuda_errors.def"

using cudaMemcpyKind = hipMemcpyKind;
constexpr cudaMemcpyKind cudaMemcpyHostToHost = hipMemcpyHostToHost;
constexpr cudaMemcpyKind cudaMemcpyHostToDevice = hipMemcpyHostToDevice;
constexpr cudaMemcpyKind cudaMemcpyDeviceToHost = hipMemcpyDeviceToHost;
constexpr cudaMemcpyKind cudaMemcpyDeviceToDevice = hipMemcpyDeviceToDevice;
constexpr cudaMemcpyKind cudaMemcpyDefault = hipMemcpyDefault;

using cudaDeviceAttr = hipDeviceAttribute_t;
#define HPP_CUDA_DEVICE_ATTRIBUTE(Name, Value, HipName, CpuValue)              \
  constexpr cudaDeviceAttr Name = HipName;
#include "hpp/cuda_device_attributes.def"

using cudaFuncAttribute = hipFuncAttribute;
constexpr cudaFuncAttribute cudaFuncAttributeMaxDynamicSharedMemorySize =
    hipFuncAttributeMaxDynamicSharedMemorySize;
constexpr cudaFuncAttribute cudaFuncAttributePreferredSharedMemoryCarveout =
    hipFuncAttributePreferredSharedMemoryCarveout;

using cudaStream_t = hipStream_t;
using cudaEvent_t = hipEvent_t;
using cudaDeviceProp = hipDeviceProp_t;
using cudaFuncAttributes = hipFuncAttributes;

constexpr unsigned cudaStreamDefault = hipStreamDefault;
constexpr unsigned cudaStreamNonBlocking = hipStreamNonBlocking;
#if defined(hipStreamPerThread)
inline const cudaStream_t cudaStreamPerThread = hipStreamPerThread;
#endif
constexpr unsigned cudaEventDefault = hipEventDefault;
constexpr unsigned cudaEventBlockingSync = hipEventBlockingSync;
constexpr unsigned cudaEventDisableTiming = hipEventDisableTiming;
constexpr unsigned cudaEventInterprocess = hipEventInterprocess;
constexpr unsigned cudaHostAllocDefault = hipHostMallocDefault;
constexpr unsigned cudaHostAllocPortable = hipHostMallocPortable;
constexpr unsigned cudaHostAllocMapped = hipHostMallocMapped;
constexpr unsigned cudaHostAllocWriteCombined = hipHostMallocWriteCombined;
constexpr unsigned cudaMemAttachGlobal = hipMemAttachGlobal;
constexpr unsigned cudaMemAttachHost = hipMemAttachHost;
constexpr unsigned cudaMemAttachSingle = hipMemAttachSingle;
constexpr int cudaCpuDeviceId = hipCpuDeviceId;
constexpr int cudaInvalidDeviceId = hipInvalidDeviceId;


//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

inline const char *cudaGetErrorString(cudaError_t E) {
#define HPP_CUDA_ERROR(Name, Value, HipName, Text)                             \
  if (E == HipName)                                                            \
    return Text;
#include "hpp/cuda_errors.def"
  return hipGetErrorString(E);
}
inline const char *cudaGetErrorName(cudaError_t E) {
#define HPP_CUDA_ERROR(Name, Value, HipName, Text)                             \
  if (E == HipName)                                                            \
    return #Name;
#include "hpp/cuda_errors.def"
  return hipGetErrorName(E);
}
inline cudaError_t cudaGetLastError() { return hipGetLastError(); }
inline cudaError_t cudaPeekAtLastError() { return hipPeekAtLastError(); }

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

inline cudaError_t cudaMalloc(void **Ptr, size_t Bytes) {
  return hipMalloc(Ptr, Bytes);
}
template <class T> cudaError_t cudaMalloc(T **Ptr, size_t Bytes) {
  return hipMalloc(reinterpret_cast<void **>(Ptr), Bytes);
}
inline cudaError_t cudaFree(void *Ptr) { return hipFree(Ptr); }

inline cudaError_t cudaMallocManaged(void **Ptr, size_t Bytes,
                                     unsigned Flags = cudaMemAttachGlobal) {
  return hipMallocManaged(Ptr, Bytes, Flags);
}
template <class T>
cudaError_t cudaMallocManaged(T **Ptr, size_t Bytes,
                              unsigned Flags = cudaMemAttachGlobal) {
  return hipMallocManaged(reinterpret_cast<void **>(Ptr), Bytes, Flags);
}

/// cudaHostAlloc's flags have hipHostMalloc's values.
inline cudaError_t cudaHostAlloc(void **Ptr, size_t Bytes, unsigned Flags) {
  return hipHostMalloc(Ptr, Bytes, Flags);
}
template <class T>
cudaError_t cudaHostAlloc(T **Ptr, size_t Bytes, unsigned Flags) {
  return hipHostMalloc(reinterpret_cast<void **>(Ptr), Bytes, Flags);
}
inline cudaError_t cudaMallocHost(void **Ptr, size_t Bytes) {
  return hipHostMalloc(Ptr, Bytes, hipHostMallocDefault);
}
template <class T>
cudaError_t cudaMallocHost(T **Ptr, size_t Bytes, unsigned Flags = 0) {
  return hipHostMalloc(reinterpret_cast<void **>(Ptr), Bytes, Flags);
}
inline cudaError_t cudaFreeHost(void *Ptr) { return hipHostFree(Ptr); }
inline cudaError_t cudaHostGetDevicePointer(void **Device, void *Host,
                                            unsigned Flags) {
  return hipHostGetDevicePointer(Device, Host, Flags);
}

inline cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  return hipMemGetInfo(Free, Total);
}

inline cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                              cudaMemcpyKind Kind) {
  return hipMemcpy(Dst, Src, Count, Kind);
}
inline cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t Count,
                                   cudaMemcpyKind Kind,
                                   cudaStream_t Stream = 0) {
  return hipMemcpyAsync(Dst, Src, Count, Kind, Stream);
}
inline cudaError_t cudaMemset(void *Dst, int Value, size_t Count) {
  return hipMemset(Dst, Value, Count);
}
inline cudaError_t cudaMemsetAsync(void *Dst, int Value, size_t Count,
                                   cudaStream_t Stream = 0) {
  return hipMemsetAsync(Dst, Value, Count, Stream);
}

// The symbol copies: HIP takes the variable's address (HIP_SYMBOL).
template <class T>
cudaError_t cudaMemcpyToSymbol(const T &Symbol, const void *Src, size_t Count,
                               size_t Offset = 0,
                               cudaMemcpyKind Kind = cudaMemcpyHostToDevice) {
  return hipMemcpyToSymbol(static_cast<const void *>(&Symbol), Src, Count,
                           Offset, Kind);
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(
    const T &Symbol, const void *Src, size_t Count, size_t Offset = 0,
    cudaMemcpyKind Kind = cudaMemcpyHostToDevice, cudaStream_t Stream = 0) {
  return hipMemcpyToSymbolAsync(static_cast<const void *>(&Symbol), Src, Count,
                                Offset, Kind, Stream);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void *Dst, const T &Symbol, size_t Count,
                                 size_t Offset = 0,
                                 cudaMemcpyKind Kind = cudaMemcpyDeviceToHost) {
  return hipMemcpyFromSymbol(Dst, static_cast<const void *>(&Symbol), Count,
                             Offset, Kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(
    void *Dst, const T &Symbol, size_t Count, size_t Offset = 0,
    cudaMemcpyKind Kind = cudaMemcpyDeviceToHost, cudaStream_t Stream = 0) {
  return hipMemcpyFromSymbolAsync(Dst, static_cast<const void *>(&Symbol),
                                  Count, Offset, Kind, Stream);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void **DevPtr, const T &Symbol) {
  return hipGetSymbolAddress(DevPtr, static_cast<const void *>(&Symbol));
}
template <class T>
cudaError_t cudaGetSymbolSize(size_t *Size, const T &Symbol) {
  return hipGetSymbolSize(Size, static_cast<const void *>(&Symbol));
}

/// CUDA 12's form.
inline cudaError_t cudaMemPrefetchAsync(const void *Ptr, size_t Count,
                                        int Device, cudaStream_t Stream = 0) {
  return hipMemPrefetchAsync(Ptr, Count, Device, Stream);
}
/// CUDA 13's form (\p Flags must be 0).
inline cudaError_t cudaMemPrefetchAsync(const void *Ptr, size_t Count,
                                        cudaMemLocation Location,
                                        unsigned Flags,
                                        cudaStream_t Stream = 0) {
  if (Flags != 0)
    return hipErrorInvalidValue;
  return hipMemPrefetchAsync(
      Ptr, Count,
      Location.type == cudaMemLocationTypeDevice ? Location.id : hipCpuDeviceId,
      Stream);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

inline cudaError_t cudaStreamCreate(cudaStream_t *Stream) {
  return hipStreamCreate(Stream);
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Stream,
                                             unsigned Flags) {
  return hipStreamCreateWithFlags(Stream, Flags);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t Stream) {
  return hipStreamDestroy(Stream);
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  return hipStreamSynchronize(Stream);
}
inline cudaError_t cudaStreamQuery(cudaStream_t Stream) {
  return hipStreamQuery(Stream);
}
inline cudaError_t cudaStreamWaitEvent(cudaStream_t Stream, cudaEvent_t Event,
                                       unsigned Flags = 0) {
  return hipStreamWaitEvent(Stream, Event, Flags);
}
inline cudaError_t cudaEventCreate(cudaEvent_t *Event) {
  return hipEventCreate(Event);
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *Event,
                                            unsigned Flags) {
  return hipEventCreateWithFlags(Event, Flags);
}
inline cudaError_t cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream = 0) {
  return hipEventRecord(Event, Stream);
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  return hipEventSynchronize(Event);
}
inline cudaError_t cudaEventQuery(cudaEvent_t Event) {
  return hipEventQuery(Event);
}
inline cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                        cudaEvent_t Stop) {
  return hipEventElapsedTime(Ms, Start, Stop);
}
inline cudaError_t cudaEventDestroy(cudaEvent_t Event) {
  return hipEventDestroy(Event);
}

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

inline cudaError_t cudaDeviceSynchronize() { return hipDeviceSynchronize(); }
inline cudaError_t cudaDeviceReset() { return hipDeviceReset(); }
inline cudaError_t cudaGetDevice(int *Device) { return hipGetDevice(Device); }
inline cudaError_t cudaSetDevice(int Device) { return hipSetDevice(Device); }
inline cudaError_t cudaGetDeviceCount(int *Count) {
  return hipGetDeviceCount(Count);
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *Prop, int Device) {
  return hipGetDeviceProperties(Prop, Device);
}
inline cudaError_t cudaDeviceGetAttribute(int *Value, cudaDeviceAttr Attr,
                                          int Device) {
  return hipDeviceGetAttribute(Value, Attr, Device);
}

//===----------------------------------------------------------------------===//
// Kernels: the kernel itself (T * or a function pointer) or its address
//===----------------------------------------------------------------------===//

template <class T>
cudaError_t cudaFuncSetAttribute(T *Kernel, cudaFuncAttribute Attr, int Value) {
  return hipFuncSetAttribute(reinterpret_cast<const void *>(Kernel), Attr,
                             Value);
}
template <class T>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *Attributes, T *Kernel) {
  return hipFuncGetAttributes(Attributes,
                              reinterpret_cast<const void *>(Kernel));
}
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks, T Kernel,
                                                          int BlockSize,
                                                          size_t SharedBytes) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(
      Blocks, reinterpret_cast<const void *>(Kernel), BlockSize, SharedBytes);
}
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *MinGrid, int *BlockSize,
                                               T Kernel, size_t SharedBytes = 0,
                                               int BlockSizeLimit = 0) {
  return hipOccupancyMaxPotentialBlockSize(
      MinGrid, BlockSize, reinterpret_cast<const void *>(Kernel), SharedBytes,
      BlockSizeLimit);
}
template <class T>
cudaError_t cudaLaunchKernel(T *Kernel, dim3 Grid, dim3 Block, void **Args,
                             size_t SharedBytes = 0, cudaStream_t Stream = 0) {
  return hipLaunchKernel(reinterpret_cast<const void *>(Kernel), Grid, Block,
                         Args, SharedBytes, Stream);
}
template <class T>
cudaError_t cudaLaunchCooperativeKernel(T *Kernel, dim3 Grid, dim3 Block,
                                        void **Args, size_t SharedBytes = 0,
                                        cudaStream_t Stream = 0) {
  return hipLaunchCooperativeKernel(reinterpret_cast<const void *>(Kernel),
                                    Grid, Block, Args,
                                    static_cast<unsigned>(SharedBytes), Stream);
}

//===----------------------------------------------------------------------===//
// Atomics HIP 5.x lacks
//===----------------------------------------------------------------------===//

// CUDA's atomicMin / atomicMax on long long and atomicCAS on unsigned short,
// as compare-and-swap loops. Templates that only those types instantiate,
// the value's type taken from the pointer's: where HIP has the function
// (a non-template), it wins the tie, and these are never used.

template <class T, std::enable_if_t<std::is_same<T, long long>::value, int> = 0>
__device__ T atomicMin(T *Address,
                       typename hpp::detail::Identity<T>::type Value) {
  auto *Bits = reinterpret_cast<unsigned long long *>(Address);
  unsigned long long Old = *Bits, Seen;
  do {
    Seen = Old;
    if (static_cast<long long>(Seen) <= Value)
      break;
    Old = atomicCAS(Bits, Seen, static_cast<unsigned long long>(Value));
  } while (Old != Seen);
  return static_cast<long long>(Seen);
}

template <class T, std::enable_if_t<std::is_same<T, long long>::value, int> = 0>
__device__ T atomicMax(T *Address,
                       typename hpp::detail::Identity<T>::type Value) {
  auto *Bits = reinterpret_cast<unsigned long long *>(Address);
  unsigned long long Old = *Bits, Seen;
  do {
    Seen = Old;
    if (static_cast<long long>(Seen) >= Value)
      break;
    Old = atomicCAS(Bits, Seen, static_cast<unsigned long long>(Value));
  } while (Old != Seen);
  return static_cast<long long>(Seen);
}

/// On the aligned 32-bit word that holds the 16 bits.
template <class T,
          std::enable_if_t<std::is_same<T, unsigned short>::value, int> = 0>
__device__ T atomicCAS(T *Address,
                       typename hpp::detail::Identity<T>::type Compare,
                       typename hpp::detail::Identity<T>::type Value) {
  const auto At = reinterpret_cast<std::uintptr_t>(Address);
  auto *Word = reinterpret_cast<unsigned *>(At & ~std::uintptr_t(3));
  const unsigned Shift = unsigned(At & 2) * 8;
  unsigned Old = *Word;
  for (;;) {
    const auto Current = static_cast<unsigned short>(Old >> Shift);
    if (Current != Compare)
      return Current;
    const unsigned New =
        (Old & ~(0xffffu << Shift)) | (unsigned(Value) << Shift);
    const unsigned Seen = atomicCAS(Word, Old, New);
    if (Seen == Old)
      return Current;
    Old = Seen;
  }
}

//===----------------------------------------------------------------------===//
// Cache-hinted loads and stores
//===----------------------------------------------------------------------===//

// CUDA's loads and stores with a cache hint (__ldca ... __stwt), which HIP
// 5.2 has only for __half and __half2 (the loads): plain loads and stores,
// as on the CPU backend. Templates, the stored value's type taken from the
// pointer's: where HIP has the function (a non-template), it wins the tie.
#define HPP_HIP_CACHE_LOADS(X) X(__ldca) X(__ldcg) X(__ldcs) X(__ldlu) X(__ldcv)
#define HPP_HIP_CACHE_STORES(X) X(__stwb) X(__stcg) X(__stcs) X(__stwt)
#define HPP_HIP_CACHE_LOAD(Name)                                               \
  template <class T> __device__ inline T Name(const T *Address) {              \
    return *Address;                                                           \
  }
#define HPP_HIP_CACHE_STORE(Name)                                              \
  template <class T>                                                           \
  __device__ inline void Name(T *Address,                                      \
                              typename hpp::detail::Identity<T>::type Value) { \
    *Address = Value;                                                          \
  }
HPP_HIP_CACHE_LOADS(HPP_HIP_CACHE_LOAD)
HPP_HIP_CACHE_STORES(HPP_HIP_CACHE_STORE)
#undef HPP_HIP_CACHE_LOAD
#undef HPP_HIP_CACHE_STORE
#undef HPP_HIP_CACHE_LOADS
#undef HPP_HIP_CACHE_STORES

#endif // HPP_RUNTIME_BACKEND_HIP_CUDA_API_H
