//===- hpp/core/pointer.h - Pointer<T>, memory visible to host and device -===//
//
// Part of hpp-rewrite. Shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Pointer<T> is a handle to memory from hpp::allocate: a raw pointer plus
/// the element count (the device runtime uses the count to prefetch). It is
/// copied into kernels by value; a const Pointer still writes its elements,
/// like `T *const`.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_POINTER_H
#define HPP_CORE_POINTER_H

#include "hpp/core/config.h"

#include <cstddef>

namespace hpp {

/// Handle to \c count elements of T usable on the host and in device code.
template <class T> class Pointer {
public:
  using element_type = T;

  Pointer() = default;
  HPP_HD Pointer(T *Ptr, std::size_t Count) : Ptr(Ptr), Count(Count) {}

  HPP_HD T &operator[](std::size_t I) const { return Ptr[I]; }
  HPP_HD T &operator*() const { return *Ptr; }
  HPP_HD T *operator->() const { return Ptr; }
  HPP_HD T *get() const { return Ptr; }
  /// Number of elements allocated.
  HPP_HD std::size_t size() const { return Count; }
  HPP_HD explicit operator bool() const { return Ptr != nullptr; }

private:
  T *Ptr = nullptr;
  std::size_t Count = 0;
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
