//===- bench/driver_launch.cuh - Raw launches through the driver API ------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What task_bench.cu and task_launch_probe.cu share: RawDriverLaunch, a
/// one-block launch through the driver's
///    cuLaunchKernel, found through cudaGetDriverEntryPoint, with the
///    kernel's handle looked up once: the anchor for the device runtime's
///    own driver launch (runtime/hpp/backend/gpu_stream_launch.h), with
///    which it shares no code.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_BENCH_DRIVER_LAUNCH_CUH
#define HPP_BENCH_DRIVER_LAUNCH_CUH

#include "bench_util.cuh"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

/// One block of \p Threads work-items of \p Kernel on \p Stream, through
/// cuLaunchKernel.
class RawDriverLaunch {
public:
  explicit RawDriverLaunch(const void *Kernel) {
    void *Entry = nullptr;
    cudaDriverEntryPointQueryResult Found;
    BENCH_CHECK(cudaGetDriverEntryPointByVersion(
        "cuLaunchKernel", &Entry, 12000, cudaEnableDefault, &Found));
    Launch = reinterpret_cast<LaunchFn>(Entry);
    BENCH_CHECK(cudaGetFuncBySymbol(&Handle, Kernel));
  }
  void operator()(unsigned Threads, cudaStream_t Stream, void **Args) const {
    if (Launch(reinterpret_cast<CUfunction>(Handle), 1, 1, 1, Threads, 1, 1, 0,
               reinterpret_cast<CUstream>(Stream), Args,
               nullptr) != CUDA_SUCCESS) {
      std::fprintf(stderr, "cuLaunchKernel failed\n");
      std::exit(2);
    }
  }

private:
  using LaunchFn = CUresult(CUDAAPI *)(CUfunction, unsigned, unsigned, unsigned,
                                       unsigned, unsigned, unsigned, unsigned,
                                       CUstream, void **, void **);
  LaunchFn Launch = nullptr;
  cudaFunction_t Handle = nullptr;
};

#endif // HPP_BENCH_DRIVER_LAUNCH_CUH
