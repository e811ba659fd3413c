//===- hpp/core/error.h - hpp::RuntimeError -------------------------------===//
//
// Part of hpp-rewrite. Shared by every backend (host code only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The exception every failed runtime call throws: the call's text, the
/// source file and line, and the backend's error string.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_ERROR_H
#define HPP_CORE_ERROR_H

#include <stdexcept>
#include <string>

namespace hpp {

/// A failed HIP/CUDA (or CPU runtime) call, with where it was made.
class RuntimeError : public std::runtime_error {
public:
  RuntimeError(std::string Call, std::string File, int Line,
               std::string BackendMessage)
      : std::runtime_error(File + ":" + std::to_string(Line) + ": " + Call +
                           " failed: " + BackendMessage),
        CallText(std::move(Call)), FileName(std::move(File)), LineNo(Line),
        Backend(std::move(BackendMessage)) {}

  /// The call that failed, as written (e.g. "hipMallocManaged(&p, n)").
  const std::string &call() const { return CallText; }
  const std::string &file() const { return FileName; }
  int line() const { return LineNo; }
  /// The backend's description (hipGetErrorString / cudaGetErrorString).
  const std::string &backendMessage() const { return Backend; }

private:
  std::string CallText;
  std::string FileName;
  int LineNo;
  std::string Backend;
};

} // namespace hpp

#endif // HPP_CORE_ERROR_H
