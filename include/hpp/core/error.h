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
/// HPP_CALLER_LOCATION declares the last two parameters of a runtime entry
/// point that can throw: `const char *File, int Line`, defaulted to the
/// caller's file and line (__builtin_FILE()/__builtin_LINE(), which GCC and
/// Clang evaluate at the call, as std::source_location::current() does), so
/// that the error names the line of the user's program that misused it.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_ERROR_H
#define HPP_CORE_ERROR_H

#include <stdexcept>
#include <string>

/// The caller's file and line as defaulted parameters (see the file
/// comment); the parameters are named File and Line.
#define HPP_CALLER_LOCATION                                                    \
  const char *File = __builtin_FILE(), int Line = __builtin_LINE()

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

  /// The same error, reported at \p AtFile : \p AtLine (a user's call that
  /// reached it through the runtime, e.g. the launch that read a setting).
  RuntimeError at(const char *AtFile, int AtLine) const {
    return RuntimeError(CallText, AtFile, AtLine, Backend);
  }

private:
  std::string CallText;
  std::string FileName;
  int LineNo;
  std::string Backend;
};

} // namespace hpp

#endif // HPP_CORE_ERROR_H
