//===- hpp/backend/cpu_cuda_device.h - CUDA device calls, CPU ---*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA runtime's device, stream and event calls on the CPU backend:
///  - one device, 0: the host. cudaGetDeviceProperties describes it as a
///    GPU whose limits the backend enforces (1024 work-items per block, a
///    block's z at most 64, 48 KiB of dynamic shared memory by default and
///    227 KiB opted in per kernel), whose warpSize is the simulated width
///    (HPP_CPU_MVECTOR, 32 or 64), with a multiprocessor per host thread of
///    the launches (HPP_CPU_THREADS; fewer where a cooperative launch could
///    not hold a full device's worth of blocks) and compute capability 9.0;
///    cudaDeviceGetAttribute answers from the same description
///    (hpp/cuda_device_attributes.def);
///  - streams and events are objects, checked at every use (a destroyed or
///    never-created handle is cudaErrorInvalidResourceHandle). Work runs
///    synchronously, so streams and events are always complete; an event
///    records the host's steady clock, so cudaEventElapsedTime measures
///    host time between two records, and refuses events never recorded or
///    created with cudaEventDisableTiming, as CUDA does.
/// Every call takes its caller's file and line as default arguments, for
/// hpp::lastCudaErrorPlace().
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_CUDA_DEVICE_H
#define HPP_RUNTIME_BACKEND_CPU_CUDA_DEVICE_H

#include "hpp/backend/cpu_cooperative.h"
#include "hpp/backend/cpu_cuda_types.h"
#include "hpp/cpu/settings.h"
#include "hpp/cpu/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <unistd.h>

struct CUstream_st {
  unsigned Flags;
};
struct CUevent_st {
  unsigned Flags;
  bool Recorded;
  std::chrono::steady_clock::time_point Time;
};

namespace hpp {
namespace detail {

/// The streams and events that exist.
class CudaHandles {
public:
  static CudaHandles &get() {
    static CudaHandles *Handles = new CudaHandles; // Outlives static dtors.
    return *Handles;
  }
  void add(const void *H) {
    std::lock_guard<std::mutex> Guard(Lock);
    Live.insert(H);
  }
  /// Forgets \p H; false if it does not exist.
  bool remove(const void *H) {
    std::lock_guard<std::mutex> Guard(Lock);
    return Live.erase(H) != 0;
  }
  bool contains(const void *H) {
    std::lock_guard<std::mutex> Guard(Lock);
    return Live.count(H) != 0;
  }

private:
  std::mutex Lock;
  std::set<const void *> Live;
};

/// Whether work may be given to \p S: the null stream, the special
/// streams, or one that exists.
inline bool validStream(cudaStream_t S) {
  return !S || S == cudaStreamLegacy || S == cudaStreamPerThread ||
         CudaHandles::get().contains(S);
}
inline bool validEvent(cudaEvent_t E) {
  return E && CudaHandles::get().contains(E);
}

/// Multiprocessors of the device: one per host thread of the launches,
/// but no more than a cooperative launch of full multiprocessors can hold
/// (HPP_CPU_MAX_RESIDENT work-items, 4096 work-groups).
inline int cudaMultiprocessors(const char *File, int Line) {
  const std::size_t Threads = hpp::cpu::readThreadCount(File, Line);
  const std::size_t ByItems = hpp::cpu::maxResidentItems(File, Line) / 2048;
  const std::size_t ByGroups = hpp::cpu_backend::MaxCooperativeGroups / 32;
  return int(
      std::max<std::size_t>(1, std::min(Threads, std::min(ByItems, ByGroups))));
}

/// Bytes of the host's memory, the device's global memory.
inline std::size_t hostMemoryBytes() {
  const long Pages = sysconf(_SC_PHYS_PAGES), Size = sysconf(_SC_PAGESIZE);
  return Pages > 0 && Size > 0 ? std::size_t(Pages) * std::size_t(Size)
                               : std::size_t(1) << 34;
}

/// The device as cudaGetDeviceProperties describes it (made once).
inline const cudaDeviceProp &cudaCpuDevice(const char *File, int Line) {
  static const cudaDeviceProp Prop = [File, Line] {
    cudaDeviceProp P;
    std::memset(&P, 0, sizeof P);
    std::snprintf(P.name, sizeof P.name, "hpp-rewrite CPU backend");
    P.totalGlobalMem = hostMemoryBytes();
    P.sharedMemPerBlock = 48 * 1024;
    P.regsPerBlock = 65536;
    P.warpSize = int(hpp::cpu::mvectorWidth(File, Line));
    P.memPitch = 2147483647;
    P.maxThreadsPerBlock = int(hpp::cpu_backend::MaxWorkGroupItems);
    P.maxThreadsDim[0] = P.maxThreadsDim[1] = P.maxThreadsPerBlock;
    P.maxThreadsDim[2] = int(hpp::cpu_backend::MaxWorkGroupZ);
    P.maxGridSize[0] = 2147483647;
    P.maxGridSize[1] = P.maxGridSize[2] = 65535;
    P.clockRate = 1000000;
    P.totalConstMem = 65536;
    P.major = 9;
    P.minor = 0;
    P.textureAlignment = 512;
    P.deviceOverlap = 1;
    P.multiProcessorCount = cudaMultiprocessors(File, Line);
    P.canMapHostMemory = 1;
    P.concurrentKernels = 1;
    P.asyncEngineCount = 1;
    P.unifiedAddressing = 1;
    P.memoryClockRate = 1000000;
    P.memoryBusWidth = 64;
    P.l2CacheSize = 4 * 1024 * 1024;
    P.maxThreadsPerMultiProcessor = 2048;
    P.sharedMemPerMultiprocessor = 228 * 1024;
    P.regsPerMultiprocessor = 65536;
    P.managedMemory = 1;
    P.pageableMemoryAccess = 1;
    P.concurrentManagedAccess = 1;
    P.cooperativeLaunch = 1;
    P.reservedSharedMemPerBlock = 1024;
    P.sharedMemPerBlockOptin =
        P.sharedMemPerMultiprocessor - P.reservedSharedMemPerBlock;
    P.maxBlocksPerMultiProcessor = 32;
    return P;
  }();
  return Prop;
}

} // namespace detail
} // namespace hpp

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

inline cudaError_t cudaGetDeviceCount(int *Count, HPP_CALLER_LOCATION) {
  if (!Count)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaGetDeviceCount",
                                 File, Line);
  *Count = 1;
  return cudaSuccess;
}

inline cudaError_t cudaGetDevice(int *Device, HPP_CALLER_LOCATION) {
  if (!Device)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaGetDevice", File,
                                 Line);
  *Device = 0;
  return cudaSuccess;
}

inline cudaError_t cudaSetDevice(int Device, HPP_CALLER_LOCATION) {
  if (Device != 0)
    return hpp::detail::cudaFail(cudaErrorInvalidDevice, "cudaSetDevice", File,
                                 Line);
  return cudaSuccess;
}

inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *Prop, int Device,
                                           HPP_CALLER_LOCATION) {
  if (!Prop)
    return hpp::detail::cudaFail(cudaErrorInvalidValue,
                                 "cudaGetDeviceProperties", File, Line);
  if (Device != 0)
    return hpp::detail::cudaFail(cudaErrorInvalidDevice,
                                 "cudaGetDeviceProperties", File, Line);
  *Prop = hpp::detail::cudaCpuDevice(File, Line);
  return cudaSuccess;
}

inline cudaError_t cudaDeviceGetAttribute(int *Value, cudaDeviceAttr Attr,
                                          int Device, HPP_CALLER_LOCATION) {
  const char *Call = "cudaDeviceGetAttribute";
  if (!Value)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, Call, File, Line);
  if (Device != 0)
    return hpp::detail::cudaFail(cudaErrorInvalidDevice, Call, File, Line);
  const cudaDeviceProp &Prop = hpp::detail::cudaCpuDevice(File, Line);
#define HPP_CUDA_DEVICE_ATTRIBUTE(Name, Number, HipName, CpuValue)             \
  if (Attr == Name) {                                                          \
    *Value = (CpuValue);                                                       \
    return cudaSuccess;                                                        \
  }
#include "hpp/cuda_device_attributes.def"
  return hpp::detail::cudaFail(cudaErrorInvalidValue, Call, File, Line);
}

/// Work runs synchronously: nothing to wait for.
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Stream,
                                             unsigned Flags,
                                             HPP_CALLER_LOCATION) {
  if (!Stream || (Flags & ~cudaStreamNonBlocking))
    return hpp::detail::cudaFail(cudaErrorInvalidValue,
                                 "cudaStreamCreateWithFlags", File, Line);
  *Stream = new CUstream_st{Flags};
  hpp::detail::CudaHandles::get().add(*Stream);
  return cudaSuccess;
}

inline cudaError_t cudaStreamCreate(cudaStream_t *Stream, HPP_CALLER_LOCATION) {
  if (!Stream)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaStreamCreate",
                                 File, Line);
  return cudaStreamCreateWithFlags(Stream, cudaStreamDefault, File, Line);
}

inline cudaError_t cudaStreamDestroy(cudaStream_t Stream, HPP_CALLER_LOCATION) {
  if (!Stream || !hpp::detail::CudaHandles::get().remove(Stream))
    return hpp::detail::cudaFail(cudaErrorInvalidResourceHandle,
                                 "cudaStreamDestroy", File, Line);
  delete Stream;
  return cudaSuccess;
}

/// The stream's work has run (synchronously): complete.
inline cudaError_t cudaStreamSynchronize(cudaStream_t Stream,
                                         HPP_CALLER_LOCATION) {
  if (!hpp::detail::validStream(Stream))
    return hpp::detail::cudaFail(cudaErrorInvalidResourceHandle,
                                 "cudaStreamSynchronize", File, Line);
  return cudaSuccess;
}

inline cudaError_t cudaStreamQuery(cudaStream_t Stream, HPP_CALLER_LOCATION) {
  if (!hpp::detail::validStream(Stream))
    return hpp::detail::cudaFail(cudaErrorInvalidResourceHandle,
                                 "cudaStreamQuery", File, Line);
  return cudaSuccess;
}

inline cudaError_t cudaStreamWaitEvent(cudaStream_t Stream, cudaEvent_t Event,
                                       unsigned Flags = 0,
                                       HPP_CALLER_LOCATION) {
  const char *Call = "cudaStreamWaitEvent";
  if (!hpp::detail::validStream(Stream) || !hpp::detail::validEvent(Event))
    return hpp::detail::cudaFail(cudaErrorInvalidResourceHandle, Call, File,
                                 Line);
  if (Flags != 0)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, Call, File, Line);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *Event, unsigned Flags,
                                            HPP_CALLER_LOCATION) {
  const unsigned Known =
      cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (!Event || (Flags & ~Known))
    return hpp::detail::cudaFail(cudaErrorInvalidValue,
                                 "cudaEventCreateWithFlags", File, Line);
  *Event = new CUevent_st{Flags, false, {}};
  hpp::detail::CudaHandles::get().add(*Event);
  return cudaSuccess;
}

inline cudaError_t cudaEventCreate(cudaEvent_t *Event, HPP_CALLER_LOCATION) {
  if (!Event)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaEventCreate", File,
                                 Line);
  return cudaEventCreateWithFlags(Event, cudaEventDefault, File, Line);
}

inline cudaError_t cudaEventDestroy(cudaEvent_t Event, HPP_CALLER_LOCATION) {
  if (!Event || !hpp::detail::CudaHandles::get().remove(Event))
    return hpp::detail::cudaFail(cudaErrorInvalidResourceHandle,
                                 "cudaEventDestroy", File, Line);
  delete Event;
  return cudaSuccess;
}

/// Records the time now: what came before on \p Stream has completed.
inline cudaError_t cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream = 0,
                                   HPP_CALLER_LOCATION) {
  if (!hpp::detail::validEvent(Event) || !hpp::detail::validStream(Stream))
    return hpp::detail::cudaFail(cudaErrorInvalidResourceHandle,
                                 "cudaEventRecord", File, Line);
  Event->Recorded = true;
  Event->Time = std::chrono::steady_clock::now();
  return cudaSuccess;
}

inline cudaError_t cudaEventSynchronize(cudaEvent_t Event,
                                        HPP_CALLER_LOCATION) {
  if (!hpp::detail::validEvent(Event))
    return hpp::detail::cudaFail(cudaErrorInvalidResourceHandle,
                                 "cudaEventSynchronize", File, Line);
  return cudaSuccess;
}

inline cudaError_t cudaEventQuery(cudaEvent_t Event, HPP_CALLER_LOCATION) {
  if (!hpp::detail::validEvent(Event))
    return hpp::detail::cudaFail(cudaErrorInvalidResourceHandle,
                                 "cudaEventQuery", File, Line);
  return cudaSuccess;
}

/// Milliseconds of host time from \p Start's record to \p Stop's.
inline cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                        cudaEvent_t Stop, HPP_CALLER_LOCATION) {
  const char *Call = "cudaEventElapsedTime";
  if (!Ms)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, Call, File, Line);
  if (!hpp::detail::validEvent(Start) || !hpp::detail::validEvent(Stop) ||
      !Start->Recorded || !Stop->Recorded ||
      ((Start->Flags | Stop->Flags) & cudaEventDisableTiming))
    return hpp::detail::cudaFail(cudaErrorInvalidResourceHandle, Call, File,
                                 Line);
  *Ms = std::chrono::duration<float, std::milli>(Stop->Time - Start->Time)
            .count();
  return cudaSuccess;
}

#endif // HPP_RUNTIME_BACKEND_CPU_CUDA_DEVICE_H
