//===- hpp/backend/hip.h - HIP backend of the device runtime --------------===//
//
// Part of hpp-rewrite. Device runtime, HIP backend (hipcc, HIP 5.2 to 7.x).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The primitives launch.h and memory.h build on, implemented with the HIP
/// runtime API. Every call is checked with HPP_CHECK. Memory from allocate
/// is managed and advised coarse-grained (hipMemAdviseSetCoarseGrain), so
/// the hardware floating-point atomics (unsafeAtomicAdd) are correct on it.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_HIP_H
#define HPP_RUNTIME_BACKEND_HIP_H

/// Set by the backend header; the shared pieces of the runtime need it.
#define HPP_RUNTIME_BACKEND 1

#include "hpp/check.h"
#include "hpp/core/config.h"

#include <hip/hip_runtime.h>
// After the runtime header, which it needs.
#include <hip/hip_cooperative_groups.h>

#include <cstddef>
#include <tuple>
#include <utility>

namespace hpp {
namespace detail {

/// Reads hipError_t for HPP_CHECK.
template <> struct BackendErrorTraits<hipError_t> {
  static bool isSuccess(hipError_t E) { return E == hipSuccess; }
  static const char *message(hipError_t E) { return hipGetErrorString(E); }
  static void clear() { (void)hipGetLastError(); }
};

/// The device kernels run on, and what it supports.
struct DeviceTarget {
  int Id = 0;
  bool ConcurrentManagedAccess = false;
};

inline DeviceTarget currentDeviceTarget() {
  DeviceTarget T;
  HPP_CHECK(hipGetDevice(&T.Id));
  int Concurrent = 0;
  HPP_CHECK(hipDeviceGetAttribute(
      &Concurrent, hipDeviceAttributeConcurrentManagedAccess, T.Id));
  T.ConcurrentManagedAccess = Concurrent != 0;
  return T;
}

/// \p Bytes (> 0) of zeroed managed memory, advised coarse-grained for the
/// current device.
inline void *allocateManagedBytes(std::size_t Bytes) {
  void *P = nullptr;
  HPP_CHECK(hipMallocManaged(&P, Bytes, hipMemAttachGlobal));
  try {
    int Device = 0;
    HPP_CHECK(hipGetDevice(&Device));
    HPP_CHECK(hipMemAdvise(P, Bytes, hipMemAdviseSetCoarseGrain, Device));
    HPP_CHECK(hipMemset(P, 0, Bytes));
    HPP_CHECK(hipDeviceSynchronize());
  } catch (...) {
    (void)hipFree(P);
    throw;
  }
  return P;
}

inline void freeManagedBytes(void *P) { HPP_CHECK(hipFree(P)); }

/// Migrates managed memory to the launch device ahead of a kernel (null
/// stream, so it is ordered before the launch).
inline void prefetchToDevice(const DeviceTarget &T, const void *P,
                             std::size_t Bytes) {
  HPP_CHECK(hipMemPrefetchAsync(P, Bytes, T.Id, 0));
}

/// Launches \p Kernel with the range and the converted arguments, then waits
/// for it (parallelFor blocks).
template <class KernelT, class RangeT, class... P, std::size_t... I>
void launchOnBackend(KernelT *Kernel, dim3 Grid, dim3 Block, RangeT &RangeArg,
                     std::tuple<P...> &Args, std::index_sequence<I...>) {
  void *ArgPtrs[] = {static_cast<void *>(&RangeArg),
                     static_cast<void *>(&std::get<I>(Args))...};
  const void *Func = reinterpret_cast<const void *>(Kernel);
  HPP_CHECK(hipLaunchKernel(Func, Grid, Block, ArgPtrs, 0, 0));
  HPP_CHECK(hipDeviceSynchronize());
}

/// The wavefront size device \p DeviceId reports (32 or 64).
inline int queryWarpSize(int DeviceId) {
  int Size = 0;
  HPP_CHECK(hipDeviceGetAttribute(&Size, hipDeviceAttributeWarpSize, DeviceId));
  return Size;
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_HIP_H
