//===- hpp/core/pointer.h - Pointer<T>, memory visible to host and device -===//
//
// Part of hpp-rewrite. Shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Pointer<T> is a handle to memory from hpp::allocate: a raw pointer, the
/// element count (the device runtime uses the count to prefetch) and the
/// number of the device the memory was allocated on (0 unless allocate was
/// given a Device). It is copied into kernels by value; a const Pointer
/// still writes its elements, like `T *const`.
///
/// On the CPU backends operator[], operator*, operator-> and get() check
/// that a kernel running on device d uses only memory of d or of a device
/// it was given peer access to (hpp/cpu/device_sim.h); host code may use
/// any. size(), operator bool and getDevice() are not checked, nor a raw
/// pointer taken in host code. The GPU backends do not check.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_POINTER_H
#define HPP_CORE_POINTER_H

#include "hpp/core/config.h"
#include "hpp/core/device.h"

#include <cstddef>

#if defined(HPP_BACKEND_CPU)
#include "hpp/cpu/device_sim.h"
/// The device-memory check of an element access (see the file comment).
#define HPP_POINTER_CHECK() ::hpp::cpu::checkAccess(Ptr, DeviceId)
#else
#define HPP_POINTER_CHECK() ((void)0)
#endif

namespace hpp {

/// Handle to \c count elements of T usable on the host and in device code.
template <class T> class Pointer {
public:
  using element_type = T;

  Pointer() = default;
  HPP_HD Pointer(T *Ptr, std::size_t Count, int DeviceId = 0)
      : Ptr(Ptr), Count(Count), DeviceId(DeviceId) {}

  HPP_HD T &operator[](std::size_t I) const {
    HPP_POINTER_CHECK();
    return Ptr[I];
  }
  HPP_HD T &operator*() const {
    HPP_POINTER_CHECK();
    return *Ptr;
  }
  HPP_HD T *operator->() const {
    HPP_POINTER_CHECK();
    return Ptr;
  }
  HPP_HD T *get() const {
    HPP_POINTER_CHECK();
    return Ptr;
  }
  /// Number of elements allocated.
  HPP_HD std::size_t size() const { return Count; }
  HPP_HD explicit operator bool() const { return Ptr != nullptr; }
  /// The device the memory was allocated on (host code).
  Device getDevice() const { return Device(DeviceId); }

private:
  T *Ptr = nullptr;
  std::size_t Count = 0;
  int DeviceId = 0;
};

namespace detail {
/// Detects Pointer<T> among a kernel's arguments (for prefetching).
template <class T> struct IsPointer { static constexpr bool value = false; };
template <class T> struct IsPointer<Pointer<T>> {
  static constexpr bool value = true;
};
} // namespace detail

} // namespace hpp

#endif // HPP_CORE_POINTER_H
