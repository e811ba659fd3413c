//===- hpp/cpu/memory.h - allocate / deallocate on the CPU ----------------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::allocate<T>(n) and hpp::deallocate(p): host memory standing in for
/// the managed memory of the GPU backends. Elements are value-initialized
/// (zero for arithmetic types and Atomic<T>, like the zeroed device memory)
/// and the block is aligned like a device allocation (256 bytes).
///
/// allocate<T>(n, Device(d)) puts the block on simulated device d
/// (hpp/cpu/device_sim.h: kernels of other devices may not use it without
/// peer access); allocate<T>(n) on the default device (HPP_DEVICE). Each
/// block is recorded with its device and line, for the errors of the
/// device check, until deallocate.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_MEMORY_H
#define HPP_CPU_MEMORY_H

#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/core/pointer.h"
#include "hpp/cpu/device_sim.h"
#include "hpp/cpu/sync.h"

#include <cstddef>
#include <new>
#include <string>
#include <type_traits>

namespace hpp {

namespace cpu {
/// Alignment of every allocation (cudaMallocManaged/hipMallocManaged give
/// at least 256 bytes).
template <class T> constexpr std::size_t allocAlignment() {
  return alignof(T) > 256 ? alignof(T) : 256;
}
} // namespace cpu

/// \p Count value-initialized elements of T on device \p D, usable on the
/// host and in kernels on D (and on devices given peer access to D).
/// Throws RuntimeError at the caller's line for a device that does not
/// exist or memory that cannot be allocated.
template <class T>
Pointer<T> allocate(std::size_t Count, Device D, HPP_CALLER_LOCATION) {
  static_assert(std::is_default_constructible<T>::value,
                "allocate<T>: T must be default-constructible");
  static_assert(std::is_trivially_destructible<T>::value,
                "allocate<T>: T must be trivially destructible (device "
                "memory never runs destructors)");
  cpu::checkDeviceId(D.getId(), "allocate", File, Line);
  constexpr std::size_t Align = cpu::allocAlignment<T>();
  if (Count > static_cast<std::size_t>(-1) / sizeof(T))
    throw RuntimeError("allocate<T>(" + std::to_string(Count) + ")", File, Line,
                       "size overflows std::size_t");
  void *Raw;
  try {
    Raw = ::operator new(Count * sizeof(T), std::align_val_t(Align));
  } catch (const std::bad_alloc &) {
    throw RuntimeError("allocate<T>(" + std::to_string(Count) + ")", File, Line,
                       "out of memory");
  }
  T *Elements = static_cast<T *>(Raw);
  for (std::size_t I = 0; I != Count; ++I)
    ::new (static_cast<void *>(Elements + I)) T();
  cpu::recordAllocation(Raw, Count * sizeof(T), D.getId(), File, Line);
  return Pointer<T>(Elements, Count, D.getId());
}

/// \p Count value-initialized elements of T on the default device
/// (getDefaultDevice()).
template <class T> Pointer<T> allocate(std::size_t Count, HPP_CALLER_LOCATION) {
  return allocate<T>(Count, Device(cpu::defaultDeviceId(File, Line)), File,
                     Line);
}

/// \p Count value-initialized elements of T in host memory for staging
/// (docs/devices.md): the host, copy and copyAsync use it, kernels may not
/// (on the GPU runtimes it is page-locked, so copies and MPI never move
/// its pages). Its Pointer's device number is HostMemoryId.
template <class T>
Pointer<T> allocateHost(std::size_t Count, HPP_CALLER_LOCATION) {
  static_assert(std::is_default_constructible<T>::value,
                "allocateHost<T>: T must be default-constructible");
  static_assert(std::is_trivially_destructible<T>::value,
                "allocateHost<T>: T must be trivially destructible");
  constexpr std::size_t Align = cpu::allocAlignment<T>();
  if (Count > static_cast<std::size_t>(-1) / sizeof(T))
    throw RuntimeError("allocateHost<T>(" + std::to_string(Count) + ")", File,
                       Line, "size overflows std::size_t");
  void *Raw;
  try {
    Raw = ::operator new(Count * sizeof(T), std::align_val_t(Align));
  } catch (const std::bad_alloc &) {
    throw RuntimeError("allocateHost<T>(" + std::to_string(Count) + ")", File,
                       Line, "out of memory");
  }
  T *Elements = static_cast<T *>(Raw);
  for (std::size_t I = 0; I != Count; ++I)
    ::new (static_cast<void *>(Elements + I)) T();
  cpu::recordAllocation(Raw, Count * sizeof(T), HostMemoryId, File, Line);
  return Pointer<T>(Elements, Count, HostMemoryId);
}

/// Frees memory from allocate(). A null Pointer is ignored.
/// Frees \p P. Like cudaFree / hipFree, which wait for the device, it
/// first runs the enqueued tasks, which may still use \p P.
template <class T> void deallocate(Pointer<T> P) {
  if (!P)
    return;
  cpu::TaskQueue::get().runUntil(nullptr);
  cpu::forgetAllocation(static_cast<const void *>(P.get()));
  ::operator delete(static_cast<void *>(P.get()),
                    std::align_val_t(cpu::allocAlignment<T>()));
}

} // namespace hpp

#endif // HPP_CPU_MEMORY_H
