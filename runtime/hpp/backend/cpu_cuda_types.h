//===- hpp/backend/cpu_cuda_types.h - CUDA API types, CPU -------*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The types, enumerators and flags of the CUDA runtime API as the CPU
/// backend defines them, in the global namespace and with CUDA's numbers
/// (cudaError_t, cudaMemcpyKind, cudaDeviceAttr, cudaStream_t, cudaEvent_t,
/// cudaDeviceProp, cudaFuncAttributes, cudaMemLocation, the stream, event,
/// host-allocation and attach flags), and the record of the errors: per
/// host thread, as CUDA keeps it, every failing call stores its error
/// (what cudaGetLastError returns and resets, and cudaPeekAtLastError
/// returns) and its caller's file and line (hpp::lastCudaErrorPlace()).
/// None of the errors the CPU backend produces is sticky: each is cleared
/// by the cudaGetLastError that reads it. A kernel launch whose error no
/// cudaGetLastError or cudaPeekAtLastError read is reported on stderr
/// when its thread ends, so that a port that never checks is not silently
/// wrong.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_CUDA_TYPES_H
#define HPP_RUNTIME_BACKEND_CPU_CUDA_TYPES_H

#include "hpp/check.h"
#include "hpp/cpu/settings.h"
#include "hpp/cuda_api_support.h"
#include "hpp/cuda_mem_location.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

/// Managed variables are ordinary globals on the host.
#ifndef __managed__
#define __managed__
#endif

/// CUDA's vector type of two floats (what __half22float2 returns), and its
/// maker.
struct alignas(8) float2 {
  float x;
  float y;
};
inline float2 make_float2(float X, float Y) { return float2{X, Y}; }

/// cudaError_t, with CUDA's numbers (hpp/cuda_errors.def).
enum cudaError : int {
#define HPP_CUDA_ERROR(Name, Value, HipName, Text) Name = Value,
#include "hpp/cuda_errors.def"
};
using cudaError_t = cudaError;

enum cudaMemcpyKind : int {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

/// The attributes of cudaDeviceGetAttribute (hpp/cuda_device_attributes.def).
enum cudaDeviceAttr : int {
#define HPP_CUDA_DEVICE_ATTRIBUTE(Name, Value, HipName, CpuValue) Name = Value,
#include "hpp/cuda_device_attributes.def"
};

enum cudaFuncAttribute : int {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};


/// Streams and events are objects of the backend (cpu_cuda_device.h).
struct CUstream_st;
struct CUevent_st;
using cudaStream_t = CUstream_st *;
using cudaEvent_t = CUevent_st *;

constexpr unsigned cudaStreamDefault = 0x00;
constexpr unsigned cudaStreamNonBlocking = 0x01;
/// The special streams CUDA names by number.
inline const cudaStream_t cudaStreamLegacy =
    reinterpret_cast<cudaStream_t>(std::uintptr_t(1));
inline const cudaStream_t cudaStreamPerThread =
    reinterpret_cast<cudaStream_t>(std::uintptr_t(2));
constexpr unsigned cudaEventDefault = 0x00;
constexpr unsigned cudaEventBlockingSync = 0x01;
constexpr unsigned cudaEventDisableTiming = 0x02;
constexpr unsigned cudaEventInterprocess = 0x04;
constexpr unsigned cudaHostAllocDefault = 0x00;
constexpr unsigned cudaHostAllocPortable = 0x01;
constexpr unsigned cudaHostAllocMapped = 0x02;
constexpr unsigned cudaHostAllocWriteCombined = 0x04;
constexpr unsigned cudaMemAttachGlobal = 0x01;
constexpr unsigned cudaMemAttachHost = 0x02;
constexpr unsigned cudaMemAttachSingle = 0x04;
constexpr int cudaCpuDeviceId = -1;
constexpr int cudaInvalidDeviceId = -2;

/// The fields of CUDA's cudaDeviceProp that ported code reads (those of
/// CUDA 12 and 13; the CPU backend fills them in cpu_cuda_device.h).
struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  std::size_t totalConstMem;
  int major;
  int minor;
  std::size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int cooperativeLaunch;
  std::size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  std::size_t reservedSharedMemPerBlock;
};

/// What cudaFuncGetAttributes reports of a kernel.
struct cudaFuncAttributes {
  std::size_t sharedSizeBytes;
  std::size_t constSizeBytes;
  std::size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};

namespace hpp {
namespace detail {

/// The CPU backend's record of the errors of one host thread.
struct CudaErrorState {
  /// What cudaGetLastError returns (and resets) and cudaPeekAtLastError
  /// returns.
  cudaError_t Last = cudaSuccess;
  /// The latest failing call, and its error.
  CudaPlace Place;
  cudaError_t PlaceError = cudaSuccess;
  /// A failed launch no cudaGetLastError / cudaPeekAtLastError has read.
  CudaPlace UnreadLaunch;
  cudaError_t UnreadLaunchError = cudaSuccess;

  CudaErrorState() = default;
  CudaErrorState(const CudaErrorState &) = delete;
  CudaErrorState &operator=(const CudaErrorState &) = delete;
  ~CudaErrorState();
};

inline CudaErrorState &cudaErrorState() {
  static thread_local CudaErrorState State;
  return State;
}

/// Records the failure \p E of \p Call at \p File : \p Line; returns \p E.
inline cudaError_t cudaFail(cudaError_t E, const char *Call, const char *File,
                            int Line) {
  CudaErrorState &S = cudaErrorState();
  S.Last = E;
  S.Place = {Call, File, Line};
  S.PlaceError = E;
  return E;
}

} // namespace detail

/// The file and line of the call that set the latest error of this thread
/// (still known after cudaGetLastError has reset the error); empty if no
/// call has failed.
inline CudaPlace lastCudaErrorPlace() { return detail::cudaErrorState().Place; }

} // namespace hpp

/// CUDA's description of \p E; "unrecognized error code" for a number that
/// is not an error the runtime knows.
inline const char *cudaGetErrorString(cudaError_t E) {
#define HPP_CUDA_ERROR(Name, Value, HipName, Text)                             \
  if (E == Name)                                                               \
    return Text;
#include "hpp/cuda_errors.def"
  return "unrecognized error code";
}

/// The enumerator's name of \p E ("cudaErrorInvalidValue").
inline const char *cudaGetErrorName(cudaError_t E) {
#define HPP_CUDA_ERROR(Name, Value, HipName, Text)                             \
  if (E == Name)                                                               \
    return #Name;
#include "hpp/cuda_errors.def"
  return "unrecognized error code";
}

/// Returns the latest error of this thread and resets it to cudaSuccess.
inline cudaError_t cudaGetLastError() {
  hpp::detail::CudaErrorState &S = hpp::detail::cudaErrorState();
  const cudaError_t E = S.Last;
  S.Last = cudaSuccess;
  S.UnreadLaunch = hpp::CudaPlace();
  return E;
}

/// Returns the latest error of this thread without resetting it.
inline cudaError_t cudaPeekAtLastError() {
  hpp::detail::CudaErrorState &S = hpp::detail::cudaErrorState();
  S.UnreadLaunch = hpp::CudaPlace();
  return S.Last;
}

inline hpp::detail::CudaErrorState::~CudaErrorState() {
  if (UnreadLaunch)
    std::fprintf(stderr,
                 "%s: hpp: the kernel launch here failed (%s), and no "
                 "cudaGetLastError or cudaPeekAtLastError read the error\n",
                 UnreadLaunch.str().c_str(),
                 cudaGetErrorString(UnreadLaunchError));
}

namespace hpp {
namespace detail {

/// For an error report of \p E checked at \p File : \p Line: where the
/// call that set it was made, when that is elsewhere.
inline std::string cudaPlaceNote(cudaError_t E, const char *File, int Line) {
  const CudaErrorState &S = cudaErrorState();
  if (!S.Place || S.PlaceError != E ||
      (S.Place.Line == Line && std::string(S.Place.File) == File))
    return std::string();
  return std::string(" (set by the ") + S.Place.Call + " at " + S.Place.str() +
         ")";
}

/// HPP_CHECK on a cudaError_t: CUDA's text, and where the error was set.
template <> struct BackendErrorTraits<cudaError_t> {
  static bool isSuccess(cudaError_t E) { return E == cudaSuccess; }
  static const char *message(cudaError_t E) {
    static thread_local std::string Text;
    Text = std::string(cudaGetErrorString(E)) + cudaPlaceNote(E, "", 0);
    return Text.c_str();
  }
  static void clear() { (void)cudaGetLastError(); }
};

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CPU_CUDA_TYPES_H
