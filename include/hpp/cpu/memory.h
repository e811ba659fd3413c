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
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_MEMORY_H
#define HPP_CPU_MEMORY_H

#include "hpp/core/error.h"
#include "hpp/core/pointer.h"
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

/// \p Count value-initialized elements of T, usable on the host and in
/// device code. Throws RuntimeError at the caller's line when the memory
/// cannot be allocated.
template <class T> Pointer<T> allocate(std::size_t Count, HPP_CALLER_LOCATION) {
  static_assert(std::is_default_constructible<T>::value,
                "allocate<T>: T must be default-constructible");
  static_assert(std::is_trivially_destructible<T>::value,
                "allocate<T>: T must be trivially destructible (device "
                "memory never runs destructors)");
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
  return Pointer<T>(Elements, Count);
}

/// Frees memory from allocate(). A null Pointer is ignored.
/// Frees \p P. Like cudaFree / hipFree, which wait for the device, it
/// first runs the enqueued tasks, which may still use \p P.
template <class T> void deallocate(Pointer<T> P) {
  if (!P)
    return;
  cpu::TaskQueue::get().runUntil(nullptr);
  ::operator delete(static_cast<void *>(P.get()),
                    std::align_val_t(cpu::allocAlignment<T>()));
}

} // namespace hpp

#endif // HPP_CPU_MEMORY_H
