//===- hpp/cuda_api_support.h - launchCuda's argument types -----*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, every backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What hpp::launchCuda shares across the backends:
///  - CudaPlace, where a CUDA runtime call was written (the call, the file
///    and the line), as hpp::lastCudaErrorPlace() reports it;
///  - CudaGrid, the type of launchCuda's grid parameter: it converts from
///    whatever `<<<>>>` takes as a grid (dim3, int, unsigned, size_t) and
///    takes the caller's file and line as default arguments of that
///    converting constructor, which the compiler evaluates at the launch
///    (GCC, Clang and nvcc's front end evaluate __builtin_FILE() and
///    __builtin_LINE() in a default argument at the call). So the launch's
///    own parameters stay those of `<<<>>>`, and a launch written in a file
///    with `#line` directives (hpp-rewrite's output) names the user's
///    line;
///  - detail::Identity, which keeps a parameter out of template argument
///    deduction (std::type_identity, C++20), so that launchCuda deduces the
///    kernel's parameter types from the kernel alone and converts each
///    argument to its parameter's type at the call, as `<<<>>>` does.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_CUDA_API_SUPPORT_H
#define HPP_RUNTIME_CUDA_API_SUPPORT_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/cuda_api.h>, which selects the backend first"
#endif

#include <string>
#include <type_traits>

namespace hpp {

/// Where a CUDA runtime call or a launch was written.
struct CudaPlace {
  const char *Call = nullptr; ///< "cudaMemcpy", "kernel launch", ...
  const char *File = nullptr;
  int Line = 0;

  /// Whether a place is known.
  explicit operator bool() const { return File != nullptr; }
  /// "file:line", empty if unknown.
  std::string str() const {
    return File ? std::string(File) + ":" + std::to_string(Line)
                : std::string();
  }
};

/// The grid of a launchCuda: anything `<<<>>>` accepts as a grid, with the
/// file and line of the launch.
struct CudaGrid {
  template <class G, class = std::enable_if_t<
                         std::is_convertible<const G &, dim3>::value>>
  CudaGrid(const G &Grid, const char *File = __builtin_FILE(),
           int Line = __builtin_LINE())
      : Dims(Grid), File(File), Line(Line) {}

  dim3 Dims;
  const char *File;
  int Line;
};

namespace detail {

/// T, in a context that deduces nothing (std::type_identity).
template <class T> struct Identity { using type = T; };

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_CUDA_API_SUPPORT_H
