//===- hpp/backend/gpu_stream_launch.h - A kernel launch on a stream ------===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// detail::launchOnStream: an ordinary launch on a stream the runtime made
/// (an enqueued task, a channel's consumer; never the null stream, whose
/// meaning depends on how the program was compiled).
///
/// On CUDA 12.0 and later it calls the driver's cuLaunchKernel, found
/// through cudaGetDriverEntryPoint (nothing more to link), with the
/// kernel's function handle, looked up once per kernel and stream
/// (cudaGetFuncBySymbol) and kept in a small table of the calling thread
/// (driverFunction). cudaLaunchKernel makes that lookup at every call: on
/// an H100 host the driver call saves 0.25-0.36 us of host time per
/// launch, which a chain of small tasks is made of (docs/benchmarks.md,
/// "Tasks: enqueue overhead and overlap"). The table is keyed by the
/// stream, not by the current context (asking the driver for it cost
/// 0.10-0.22 us a launch): the runtime's streams, made once, and so the
/// handles found for them, belong to the context of the device the
/// program runs on, for as long as it lives (a program that resets the
/// device cannot enqueue tasks after it, whose streams went with it).
///
/// Whenever the driver path cannot be taken (no entry point, a lookup that
/// fails) or the driver refuses the launch (a thread without the device's
/// context current, a launch error), the launch is made again through
/// cudaLaunchKernel: a refused launch enqueued nothing, and cudaLaunchKernel
/// reports an error as every other call of the runtime does. HIP, CUDA
/// before 12.0 and HPP_DRIVER_LAUNCH=0 use hipLaunchKernel /
/// cudaLaunchKernel.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_STREAM_LAUNCH_H
#define HPP_RUNTIME_BACKEND_GPU_STREAM_LAUNCH_H

#include "hpp/check.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>

#if defined(HPP_BACKEND_CUDA) && CUDART_VERSION >= 12000
#include <cuda.h>
#define HPP_DRIVER_LAUNCH_AVAILABLE 1
#endif

namespace hpp {
namespace detail {

#if defined(HPP_DRIVER_LAUNCH_AVAILABLE)
/// The driver's cuLaunchKernel; null when the driver path is off
/// (HPP_DRIVER_LAUNCH=0) or the entry point is missing.
struct DriverLaunchApi {
  CUresult(CUDAAPI *Launch)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                            unsigned, unsigned, unsigned, CUstream, void **,
                            void **) = nullptr;

  static const DriverLaunchApi &get() {
    static const DriverLaunchApi Api = load();
    return Api;
  }

private:
  template <class Fn> static bool find(const char *Name, Fn &Out) {
    void *P = nullptr;
    cudaDriverEntryPointQueryResult Found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    const cudaError_t E = cudaGetDriverEntryPointByVersion(
        Name, &P, 12000, cudaEnableDefault, &Found);
#else
    const cudaError_t E =
        cudaGetDriverEntryPoint(Name, &P, cudaEnableDefault, &Found);
#endif
    if (E != cudaSuccess || Found != cudaDriverEntryPointSuccess || !P) {
      (void)cudaGetLastError();
      return false;
    }
    Out = reinterpret_cast<Fn>(P);
    return true;
  }
  static DriverLaunchApi load() {
    DriverLaunchApi Api;
    const char *Env = std::getenv("HPP_DRIVER_LAUNCH");
    if (Env && !std::strcmp(Env, "0"))
      return Api;
    find("cuLaunchKernel", Api.Launch);
    return Api;
  }
};

/// The function handle of kernel \p Func for launches on \p Stream, from
/// this thread's table (looked up on a miss, in the current context: the
/// stream's); null when there is none.
inline CUfunction driverFunction(const void *Func, const void *Stream) {
  struct Entry {
    const void *Func;
    const void *Stream;
    CUfunction Handle;
  };
  constexpr unsigned Size = 64;
  thread_local Entry Table[Size] = {};
  thread_local unsigned Next = 0;
  for (const Entry &E : Table)
    if (E.Func == Func && E.Stream == Stream && E.Handle)
      return E.Handle;
  cudaFunction_t Handle = nullptr;
  if (cudaGetFuncBySymbol(&Handle, Func) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  Table[Next] = {Func, Stream, reinterpret_cast<CUfunction>(Handle)};
  Next = (Next + 1) % Size;
  return reinterpret_cast<CUfunction>(Handle);
}
#endif

/// Launches \p Func on \p Stream (not null); see the file comment.
template <class StreamT>
void launchOnStream(const void *Func, dim3 Grid, dim3 Block, void **Args,
                    std::size_t Shared, StreamT Stream) {
#if defined(HPP_DRIVER_LAUNCH_AVAILABLE)
  const DriverLaunchApi &Api = DriverLaunchApi::get();
  if (Api.Launch)
    if (CUfunction F = driverFunction(Func, Stream))
      if (Api.Launch(F, Grid.x, Grid.y, Grid.z, Block.x, Block.y, Block.z,
                     unsigned(Shared), reinterpret_cast<CUstream>(Stream), Args,
                     nullptr) == CUDA_SUCCESS)
        return;
#endif
  HPP_CHECK(HPP_GPU(LaunchKernel)(Func, Grid, Block, Args, Shared, Stream));
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_STREAM_LAUNCH_H
