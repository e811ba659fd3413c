//===- hpp/check.h - HPP_CHECK: checked backend calls ---------------------===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend (host code).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// HPP_CHECK(call) evaluates a backend call (cudaMalloc..., hipMalloc...,
/// or a CPU backend call) and throws hpp::RuntimeError carrying the call as
/// written, __FILE__, __LINE__ and the backend's error string when it fails.
///
/// The check works for any error type with a BackendErrorTraits
/// specialization; each backend header specializes it for its own error
/// type (cudaError_t, hipError_t, hpp::cpu_backend::Error).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_CHECK_H
#define HPP_RUNTIME_CHECK_H

#include "hpp/core/error.h"

namespace hpp {
namespace detail {

/// How to read a backend's error code. Specializations provide
///   static bool isSuccess(E);
///   static const char *message(E);   // cudaGetErrorString & co.
///   static void clear();             // reset the non-sticky error state
template <class E> struct BackendErrorTraits;

/// Throws RuntimeError unless \p Err is the backend's success code.
template <class E>
inline void checkCall(E Err, const char *Call, const char *File, int Line) {
  using Traits = BackendErrorTraits<E>;
  if (Traits::isSuccess(Err))
    return;
  Traits::clear();
  throw RuntimeError(Call, File, Line, Traits::message(Err));
}

} // namespace detail
} // namespace hpp

/// Evaluates \p call (a backend API call returning an error code) and throws
/// hpp::RuntimeError with the call text, file, line and the backend's error
/// string if it failed. Host code only.
#define HPP_CHECK(call)                                                        \
  ::hpp::detail::checkCall((call), #call, __FILE__, __LINE__)

#endif // HPP_RUNTIME_CHECK_H
