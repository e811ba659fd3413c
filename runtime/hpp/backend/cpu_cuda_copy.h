//===- hpp/backend/cpu_cuda_copy.h - CUDA copies, CPU -----------*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA runtime's copies and memsets on the CPU backend, checked against
/// the allocations cpu_cuda_memory.h tracks:
///  - a copy or memset whose device side (the side its cudaMemcpyKind
///    names; with cudaMemcpyDefault, neither) does not lie in a tracked
///    allocation, or any of whose sides starts in one but leaves it, fails
///    with cudaErrorInvalidValue, as CUDA refuses it, instead of corrupting
///    the host's heap; a kind that is none of cudaMemcpyKind's is
///    cudaErrorInvalidMemcpyDirection;
///  - `__constant__` and `__device__` variables are ordinary globals: the
///    symbol copies (CUDA's templates, on the variable) check the range
///    against the variable's size and the direction; the C API's forms (the
///    variable's address) check the range only for a variable that
///    cudaGetSymbolAddress has tracked;
///  - the asynchronous forms run at once, on a stream that must exist.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_CUDA_COPY_H
#define HPP_RUNTIME_BACKEND_CPU_CUDA_COPY_H

#include "hpp/backend/cpu_cuda_memory.h"

#include <cstring>

namespace hpp {
namespace detail {

/// A copy of \p Count bytes in the direction \p Kind, on \p Stream.
inline cudaError_t cudaCopy(void *Dst, const void *Src, std::size_t Count,
                            cudaMemcpyKind Kind, cudaStream_t Stream,
                            const char *Call, const char *File, int Line) {
  if (Kind < cudaMemcpyHostToHost || Kind > cudaMemcpyDefault)
    return cudaFail(cudaErrorInvalidMemcpyDirection, Call, File, Line);
  if (!validStream(Stream))
    return cudaFail(cudaErrorInvalidResourceHandle, Call, File, Line);
  if (Count == 0)
    return cudaSuccess;
  const bool DstOnDevice =
      Kind == cudaMemcpyHostToDevice || Kind == cudaMemcpyDeviceToDevice;
  const bool SrcOnDevice =
      Kind == cudaMemcpyDeviceToHost || Kind == cudaMemcpyDeviceToDevice;
  if (!validRange(Dst, Count, DstOnDevice) ||
      !validRange(Src, Count, SrcOnDevice))
    return cudaFail(cudaErrorInvalidValue, Call, File, Line);
  std::memmove(Dst, Src, Count);
  return cudaSuccess;
}

/// A memset of \p Count bytes of device memory, on \p Stream.
inline cudaError_t cudaFill(void *Dst, int Value, std::size_t Count,
                            cudaStream_t Stream, const char *Call,
                            const char *File, int Line) {
  if (!validStream(Stream))
    return cudaFail(cudaErrorInvalidResourceHandle, Call, File, Line);
  if (Count == 0)
    return cudaSuccess;
  if (!validRange(Dst, Count, true))
    return cudaFail(cudaErrorInvalidValue, Call, File, Line);
  std::memset(Dst, Value, Count);
  return cudaSuccess;
}

/// A copy between the variable of \p SymbolBytes at \p Symbol (at
/// \p Offset) and \p Other; \p ToSymbol: which way.
inline cudaError_t cudaSymbolCopy(void *Symbol, std::size_t SymbolBytes,
                                  void *Other, std::size_t Count,
                                  std::size_t Offset, cudaMemcpyKind Kind,
                                  bool ToSymbol, cudaStream_t Stream,
                                  const char *Call, const char *File,
                                  int Line) {
  const cudaMemcpyKind OtherOnHost =
      ToSymbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  if (Kind != OtherOnHost && Kind != cudaMemcpyDeviceToDevice &&
      Kind != cudaMemcpyDefault)
    return cudaFail(cudaErrorInvalidMemcpyDirection, Call, File, Line);
  if (!validStream(Stream))
    return cudaFail(cudaErrorInvalidResourceHandle, Call, File, Line);
  if (Offset > SymbolBytes || Count > SymbolBytes - Offset)
    return cudaFail(cudaErrorInvalidValue, Call, File, Line);
  if (Count == 0)
    return cudaSuccess;
  if (!validRange(Other, Count, Kind == cudaMemcpyDeviceToDevice))
    return cudaFail(cudaErrorInvalidValue, Call, File, Line);
  char *At = static_cast<char *>(Symbol) + Offset;
  if (ToSymbol)
    std::memmove(At, Other, Count);
  else
    std::memmove(Other, At, Count);
  return cudaSuccess;
}

/// The bytes of the variable at \p Symbol when only its address is given:
/// known if cudaGetSymbolAddress tracked it, else unchecked.
inline std::size_t cudaSymbolBytes(const void *Symbol) {
  CudaAllocation A;
  if (CudaAllocations::get().find(Symbol, A))
    return A.Bytes - (std::uintptr_t(Symbol) - A.Base);
  return std::size_t(-1) / 2;
}

template <class T> void *symbolAddress(const T &Symbol) {
  return const_cast<void *>(static_cast<const volatile void *>(&Symbol));
}

} // namespace detail
} // namespace hpp

//===----------------------------------------------------------------------===//
// Copies and memsets
//===----------------------------------------------------------------------===//

inline cudaError_t cudaMemcpy(void *Dst, const void *Src, std::size_t Count,
                              cudaMemcpyKind Kind, HPP_CALLER_LOCATION) {
  return hpp::detail::cudaCopy(Dst, Src, Count, Kind, nullptr, "cudaMemcpy",
                               File, Line);
}
inline cudaError_t cudaMemcpyAsync(void *Dst, const void *Src,
                                   std::size_t Count, cudaMemcpyKind Kind,
                                   cudaStream_t Stream = 0,
                                   HPP_CALLER_LOCATION) {
  return hpp::detail::cudaCopy(Dst, Src, Count, Kind, Stream, "cudaMemcpyAsync",
                               File, Line);
}

inline cudaError_t cudaMemset(void *Dst, int Value, std::size_t Count,
                              HPP_CALLER_LOCATION) {
  return hpp::detail::cudaFill(Dst, Value, Count, nullptr, "cudaMemset", File,
                               Line);
}
inline cudaError_t cudaMemsetAsync(void *Dst, int Value, std::size_t Count,
                                   cudaStream_t Stream = 0,
                                   HPP_CALLER_LOCATION) {
  return hpp::detail::cudaFill(Dst, Value, Count, Stream, "cudaMemsetAsync",
                               File, Line);
}

//===----------------------------------------------------------------------===//
// Symbols: `__constant__` and `__device__` variables
//===----------------------------------------------------------------------===//

template <class T>
cudaError_t cudaMemcpyToSymbol(const T &Symbol, const void *Src,
                               std::size_t Count, std::size_t Offset = 0,
                               cudaMemcpyKind Kind = cudaMemcpyHostToDevice,
                               HPP_CALLER_LOCATION) {
  return hpp::detail::cudaSymbolCopy(
      hpp::detail::symbolAddress(Symbol), sizeof(T), const_cast<void *>(Src),
      Count, Offset, Kind, true, nullptr, "cudaMemcpyToSymbol", File, Line);
}
template <class T>
cudaError_t
cudaMemcpyToSymbolAsync(const T &Symbol, const void *Src, std::size_t Count,
                        std::size_t Offset = 0,
                        cudaMemcpyKind Kind = cudaMemcpyHostToDevice,
                        cudaStream_t Stream = 0, HPP_CALLER_LOCATION) {
  return hpp::detail::cudaSymbolCopy(
      hpp::detail::symbolAddress(Symbol), sizeof(T), const_cast<void *>(Src),
      Count, Offset, Kind, true, Stream, "cudaMemcpyToSymbolAsync", File, Line);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void *Dst, const T &Symbol, std::size_t Count,
                                 std::size_t Offset = 0,
                                 cudaMemcpyKind Kind = cudaMemcpyDeviceToHost,
                                 HPP_CALLER_LOCATION) {
  return hpp::detail::cudaSymbolCopy(
      hpp::detail::symbolAddress(Symbol), sizeof(T), Dst, Count, Offset, Kind,
      false, nullptr, "cudaMemcpyFromSymbol", File, Line);
}
template <class T>
cudaError_t
cudaMemcpyFromSymbolAsync(void *Dst, const T &Symbol, std::size_t Count,
                          std::size_t Offset = 0,
                          cudaMemcpyKind Kind = cudaMemcpyDeviceToHost,
                          cudaStream_t Stream = 0, HPP_CALLER_LOCATION) {
  return hpp::detail::cudaSymbolCopy(
      hpp::detail::symbolAddress(Symbol), sizeof(T), Dst, Count, Offset, Kind,
      false, Stream, "cudaMemcpyFromSymbolAsync", File, Line);
}

// The C API's forms, with the variable's address: its size is known only
// if cudaGetSymbolAddress tracked it.
inline cudaError_t
cudaMemcpyToSymbol(const void *Symbol, const void *Src, std::size_t Count,
                   std::size_t Offset = 0,
                   cudaMemcpyKind Kind = cudaMemcpyHostToDevice,
                   HPP_CALLER_LOCATION) {
  return hpp::detail::cudaSymbolCopy(
      const_cast<void *>(Symbol), hpp::detail::cudaSymbolBytes(Symbol),
      const_cast<void *>(Src), Count, Offset, Kind, true, nullptr,
      "cudaMemcpyToSymbol", File, Line);
}
inline cudaError_t cudaMemcpyFromSymbol(
    void *Dst, const void *Symbol, std::size_t Count, std::size_t Offset = 0,
    cudaMemcpyKind Kind = cudaMemcpyDeviceToHost, HPP_CALLER_LOCATION) {
  return hpp::detail::cudaSymbolCopy(
      const_cast<void *>(Symbol), hpp::detail::cudaSymbolBytes(Symbol), Dst,
      Count, Offset, Kind, false, nullptr, "cudaMemcpyFromSymbol", File, Line);
}

/// The variable's address, tracked as device memory from now on.
template <class T>
cudaError_t cudaGetSymbolAddress(void **DevPtr, const T &Symbol,
                                 HPP_CALLER_LOCATION) {
  if (!DevPtr)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaGetSymbolAddress",
                                 File, Line);
  *DevPtr = hpp::detail::symbolAddress(Symbol);
  hpp::detail::CudaAllocations::get().addSymbol(*DevPtr, sizeof(T));
  return cudaSuccess;
}
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t *Size, const T &,
                              HPP_CALLER_LOCATION) {
  if (!Size)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaGetSymbolSize",
                                 File, Line);
  *Size = sizeof(T);
  return cudaSuccess;
}

#endif // HPP_RUNTIME_BACKEND_CPU_CUDA_COPY_H
