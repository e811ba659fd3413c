//===- hpp/memory.h - allocate / deallocate -------------------------------===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::allocate<T>(n): n zeroed elements of memory usable on the host and
/// in kernels (managed memory; on HIP also advised coarse-grained), as a
/// Pointer<T>. hpp::deallocate(p) frees it. Failures throw RuntimeError at
/// the caller's file and line.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_MEMORY_H
#define HPP_RUNTIME_MEMORY_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/error.h"
#include "hpp/core/pointer.h"
#include "hpp/launch.h"

#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>

namespace hpp {

/// \p Count zeroed elements of T visible to the host and to kernels. No
/// constructors run (T is a scalar, a struct of scalars or an Atomic<U>).
/// allocate<T>(0) returns a null Pointer. A failure throws RuntimeError at
/// the caller's line, with the backend call that failed.
template <class T> Pointer<T> allocate(std::size_t Count, HPP_CALLER_LOCATION) {
  static_assert(std::is_trivially_destructible<T>::value,
                "hpp::allocate<T>: T must be trivially destructible");
  if (Count == 0)
    return Pointer<T>();
  if (Count > std::numeric_limits<std::size_t>::max() / sizeof(T))
    throw RuntimeError("hpp::allocate<T>(" + std::to_string(Count) + ")", File,
                       Line,
                       "out of memory (the size in bytes overflows size_t)");
  void *Raw;
  try {
    Raw = detail::allocateManagedBytes(Count * sizeof(T));
  } catch (const RuntimeError &E) {
    throw E.at(File, Line);
  }
  return Pointer<T>(static_cast<T *>(Raw), Count);
}

/// Frees memory from allocate; a null Pointer is ignored.
template <class T> void deallocate(Pointer<T> P) {
  if (!P)
    return;
  detail::PrefetchedSet::get().forget(P.get());
  detail::freeManagedBytes(
      const_cast<void *>(static_cast<const volatile void *>(P.get())));
}

} // namespace hpp

#endif // HPP_RUNTIME_MEMORY_H
