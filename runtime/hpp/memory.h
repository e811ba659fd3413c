//===- hpp/memory.h - allocate / deallocate -------------------------------===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::allocate<T>(n, device): n zeroed elements of memory usable on the
/// host and in kernels on that device (managed memory made with the device
/// current; on HIP also advised coarse-grained; where there are several
/// devices, advised to stay on its own), as a Pointer<T> that carries the
/// device; hpp::allocate<T>(n) is on the default device (docs/devices.md).
/// hpp::deallocate(p) frees it. Failures throw RuntimeError at the
/// caller's file and line.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_MEMORY_H
#define HPP_RUNTIME_MEMORY_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/core/pointer.h"
#include "hpp/launch.h"

#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>

namespace hpp {

/// \p Count zeroed elements of T on device \p D, visible to the host and
/// to kernels on D (and on the devices given peer access to D). No
/// constructors run (T is a scalar, a struct of scalars or an Atomic<U>).
/// allocate<T>(0, D) returns a null Pointer. A failure (a device that does
/// not exist included) throws RuntimeError at the caller's line, with the
/// backend call that failed.
template <class T>
Pointer<T> allocate(std::size_t Count, Device D, HPP_CALLER_LOCATION) {
  static_assert(std::is_trivially_destructible<T>::value,
                "hpp::allocate<T>: T must be trivially destructible");
  detail::checkDeviceId(D.getId(), "allocate", File, Line);
  if (Count == 0)
    return Pointer<T>();
  if (Count > std::numeric_limits<std::size_t>::max() / sizeof(T))
    throw RuntimeError("hpp::allocate<T>(" + std::to_string(Count) + ")", File,
                       Line,
                       "out of memory (the size in bytes overflows size_t)");
  void *Raw;
  try {
    Raw = detail::allocateManagedBytesOn(Count * sizeof(T), D.getId());
  } catch (const RuntimeError &E) {
    throw E.at(File, Line);
  }
  detail::recordAllocationSite(Raw, Count * sizeof(T), D.getId(), File, Line);
  return Pointer<T>(static_cast<T *>(Raw), Count, D.getId());
}

/// \p Count zeroed elements of T on the default device (HPP_DEVICE).
template <class T> Pointer<T> allocate(std::size_t Count, HPP_CALLER_LOCATION) {
  return allocate<T>(Count, Device(detail::defaultDeviceId(File, Line)), File,
                     Line);
}

/// \p Count zeroed elements of T in page-locked host memory, for staging
/// (docs/devices.md): the host, copy and copyAsync use it, kernels may
/// not. Copies and MPI never move its pages, as they move managed
/// memory's. The Pointer's device number is HostMemoryId.
template <class T>
Pointer<T> allocateHost(std::size_t Count, HPP_CALLER_LOCATION) {
  static_assert(std::is_trivially_destructible<T>::value,
                "hpp::allocateHost<T>: T must be trivially destructible");
  if (Count == 0)
    return Pointer<T>(nullptr, 0, HostMemoryId);
  if (Count > std::numeric_limits<std::size_t>::max() / sizeof(T))
    throw RuntimeError("hpp::allocateHost<T>(" + std::to_string(Count) + ")",
                       File, Line,
                       "out of memory (the size in bytes overflows size_t)");
  void *Raw;
  try {
    Raw = detail::allocateHostBytes(Count * sizeof(T));
  } catch (const RuntimeError &E) {
    throw E.at(File, Line);
  }
  detail::recordAllocationSite(Raw, Count * sizeof(T), HostMemoryId, File,
                               Line);
  return Pointer<T>(static_cast<T *>(Raw), Count, HostMemoryId);
}

/// Frees memory from allocate or allocateHost; a null Pointer is ignored.
template <class T> void deallocate(Pointer<T> P) {
  if (!P)
    return;
  void *Raw = const_cast<void *>(static_cast<const volatile void *>(P.get()));
  detail::PrefetchedSet::get().forget(Raw);
  detail::forgetAllocationSite(Raw);
  if (P.getDevice().getId() == HostMemoryId)
    detail::freeHostBytes(Raw);
  else
    detail::freeManagedBytes(Raw);
}

} // namespace hpp

#endif // HPP_RUNTIME_MEMORY_H
