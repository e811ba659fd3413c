//===- bench/pdl_launch.cuh - A programmatic dependent launch, raw CUDA ---===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the raw-CUDA probes (latency_probe.cu, graph_cost_probe.cu) share:
/// \p Kernel launched on \p Stream as a programmatic dependent launch (it
/// may start before the kernel ahead of it has finished, and waits for it
/// with griddepcontrol.wait). Needs only the CUDA runtime: the probes are
/// the anchors the device runtime is measured against, so they share no
/// code with it (runtime/hpp/launch_graph.h has its own launchKernelEx).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_BENCH_PDL_LAUNCH_CUH
#define HPP_BENCH_PDL_LAUNCH_CUH

#include <cuda_runtime.h>

template <class... P, class... A>
cudaError_t launchPdl(void (*Kernel)(P...), dim3 Grid, dim3 Block,
                      cudaStream_t Stream, A... Args) {
  cudaLaunchAttribute Attribute[1];
  Attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  Attribute[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t Config = {};
  Config.gridDim = Grid;
  Config.blockDim = Block;
  Config.stream = Stream;
  Config.attrs = Attribute;
  Config.numAttrs = 1;
  return cudaLaunchKernelEx(&Config, Kernel, Args...);
}

#endif // HPP_BENCH_PDL_LAUNCH_CUH
