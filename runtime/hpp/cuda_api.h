//===- hpp/cuda_api.h - The CUDA runtime API on every backend ---*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime: CUDA (nvcc), HIP (hipcc, HIP 5.2 to
// ROCm 7.x) and CPU (g++ / clang++) backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The header port-mode output includes instead of <cuda_runtime.h>: a
/// CUDA program, its CUDA runtime API names kept as written, then builds
/// with nvcc, with hipcc and as plain C++17 on the CPU backend
/// (docs/port-runtime.md). On every backend it provides:
///  - the CUDA runtime API the port uses (cudaMalloc ... cudaFuncGetAttributes:
///    docs/port-runtime.md lists them), CUDA's <cooperative_groups.h> with
///    cg::reduce, CUDA's atomic functions in device code, and the basics
///    of <cuda_fp16.h> (__half, __half2, their conversions, arithmetic and
///    comparisons: the real header on CUDA, HIP's on HIP, a software
///    binary16 on the CPU backend);
///  - hpp::launchCuda(kernel, grid, block, shmem, stream, args...), what
///    hpp-rewrite makes of `kernel<<<grid, block, shmem, stream>>>(args...)`,
///    and hpp::launchCudaCooperative (cudaLaunchCooperativeKernel's launch,
///    typed);
///  - hpp::dynamicShared<T>(), what it makes of `extern __shared__ T x[];`;
///  - hpp::lastCudaErrorPlace(), the file and line of the call that set the
///    latest error (on a GPU: of the latest launch), and
///    HPP_CUDA_CHECK(call), which throws hpp::RuntimeError with CUDA's
///    text and that place when the call fails. On the CPU backend HPP_CHECK
///    of a cudaError_t reports the place too.
/// The backends:
///  - CUDA: the real <cuda_runtime.h>, <cooperative_groups.h>,
///    <cooperative_groups/reduce.h> and <cuda_fp16.h>; nothing is renamed
///    (backend/gpu_cuda_launch.h adds the form of cudaMemPrefetchAsync the
///    installed CUDA lacks);
///  - HIP: the CUDA names forward to HIP (backend/hip_cuda_api.h), HIP's
///    cooperative groups with what HIP 5.2 lacks (backend/hip_cuda_cg.h),
///    <hip/hip_fp16.h> with __hmax and __hmin (backend/gpu_cuda_fp16.h);
///  - CPU: the API on the CPU runtime, as strict as a GPU
///    (backend/cpu_cuda_*.h): poisoned, tracked allocations, checked
///    copies, launch errors as CUDA reports them, streams and events as
///    objects, a device whose warpSize is HPP_CPU_MVECTOR.
/// It includes hpp/runtime.h first, so the dialect's runtime is there too.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_CUDA_API_H
#define HPP_RUNTIME_CUDA_API_H

#include "hpp/runtime.h"

#if defined(HPP_BACKEND_CUDA)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include "hpp/backend/gpu_cuda_fp16.h"
#include "hpp/backend/gpu_cuda_launch.h"
#elif defined(HPP_BACKEND_HIP)
#include "hpp/backend/hip_cuda_api.h"
#include "hpp/backend/hip_cuda_cg.h"

#include "hpp/backend/gpu_cuda_fp16.h"
#include "hpp/backend/gpu_cuda_launch.h"
#else
#include "hpp/backend/cpu_cuda_types.h"

#include "hpp/backend/cpu_cuda_copy.h"
#include "hpp/backend/cpu_cuda_device.h"
#include "hpp/backend/cpu_cuda_memory.h"

#include "hpp/backend/cpu_cuda_atomics.h"
#include "hpp/backend/cpu_cuda_fp16.h"
#include "hpp/backend/cpu_cuda_kernels.h"
#include "hpp/backend/cpu_cuda_launch.h"
#include "hpp/backend/cpu_cuda_math.h"
#include "hpp/cg_reduce.h"
#endif

#include "hpp/core/error.h"
#include "hpp/cuda_fp_atomic.h"

#include <string>

namespace hpp {
namespace detail {

/// HPP_CUDA_CHECK: throws unless \p E is cudaSuccess.
inline void checkCudaCall(cudaError_t E, const char *Call, const char *File,
                          int Line) {
  if (E == cudaSuccess)
    return;
  const std::string Message =
      std::string(cudaGetErrorString(E)) + cudaPlaceNote(E, File, Line);
  (void)cudaGetLastError(); // The error is reported: reset it, as CUDA's
                            // non-sticky errors are by reading them.
  throw RuntimeError(Call, File, Line, Message);
}

} // namespace detail
} // namespace hpp

/// Evaluates \p call (a CUDA runtime call) and throws hpp::RuntimeError
/// with the call as written, this file and line, CUDA's text of its error
/// and where the error was set (hpp::lastCudaErrorPlace()), if it failed.
#define HPP_CUDA_CHECK(call)                                                   \
  ::hpp::detail::checkCudaCall((call), #call, __FILE__, __LINE__)

#endif // HPP_RUNTIME_CUDA_API_H
