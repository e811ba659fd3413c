// The oracle's simulation of a rename-only port (docs/port.md, "The
// corpus"): --simulate-rename-only rewrites what a renaming tool does (the
// CUDA headers, the launches) and leaves the warp code as written; built
// with -DHPP_CPU_HIP_RENAMED, the CUDA intrinsics mean what HIP makes of
// them (hpp/cpu/hip_renamed.h): the mask ignored, a collective of the
// converged lanes of the whole wavefront, 64-bit ballots and active masks,
// shuffle widths from warpSize. At 32 lanes (wave32) the CUDA program is
// right; at 64 the 32-lane assumptions show. The real port is right at both.
// RUN: %hpp_rewrite --port --simulate-rename-only %s -o %t.renamed.cpp -- 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=TEXT < %t.renamed.cpp
// RUN: %cxx_runtime -DHPP_CPU_HIP_RENAMED %t.renamed.cpp -o %t.renamed
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t.renamed | FileCheck %s --check-prefix=RIGHT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t.renamed | FileCheck %s --check-prefix=WAVE64
// RUN: %hpp_rewrite --port %s -o %t.port.cpp --
// RUN: %cxx_runtime %t.port.cpp -o %t.port
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t.port | FileCheck %s --check-prefix=RIGHT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t.port | FileCheck %s --check-prefix=RIGHT
// RUN: %gpu_check %t.port.cpp
// RUN: not %hpp_rewrite --simulate-rename-only %s -- 2>&1 | FileCheck %s --check-prefix=NEEDS-PORT
// QUIET-NOT: [hpp-
// NEEDS-PORT: hpp-rewrite: error: --simulate-rename-only needs --port
// TEXT: #include <hpp/cuda_api.h>
// TEXT: unsigned votes = __ballot_sync(0xffffffff, 1);
// TEXT: for (int offset = warpSize / 2; offset > 0; offset /= 2)
// TEXT: hpp::launchCuda(count, 1, 64, 0, 0, d);

#include <cstdio>
#include <cuda_runtime.h>

// A ballot kept in `unsigned`: HIP's is 64 bits, cut to the lower half.
__global__ void count(int *out) {
  unsigned votes = __ballot_sync(0xffffffff, 1);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(&out[0], __popc(votes));
}

// The Kepler tail under `tid < 32`, from warpSize / 2: at 64 it shuffles
// from lanes 32..63, which are not converged at the call.
__global__ void tail(int *out) {
  int v = 1;
  if (threadIdx.x < 32) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x == 0)
      out[1] = v;
  }
}

// A butterfly of width 32 from 16: each 32-lane half sums itself, which is
// right on a wavefront too.
__global__ void halves(int *out) {
  int v = 1;
  for (int mask = 16; mask > 0; mask >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, mask, 32);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(&out[2], v);
}

// The lanes converged in a branch: lanes 32..47 are the second warp's
// first half on CUDA; HIP's __activemask has 64 bits, cut to lanes 0..31.
__global__ void active(int *out) {
  if (threadIdx.x < 48) {
    unsigned m = __activemask();
    if (threadIdx.x == 32)
      out[3] = __popc(m);
  }
}

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 4 * sizeof(int));
  cudaMemset(d, 0, 4 * sizeof(int));
  count<<<1, 64>>>(d);
  tail<<<1, 64>>>(d);
  halves<<<1, 64>>>(d);
  active<<<1, 64>>>(d);
  int h[4];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("ballot %d, tail %d, halves %d, active %d\n", h[0], h[1], h[2],
              h[3]);
  return 0;
}
// RIGHT: ballot 64, tail 32, halves 64, active 16
// At 64 one leader adds the lower half of the wavefront's ballot, the tail
// reads unconverged lanes (every bit set: -1 each, so every sum is 0), the
// halves stay right, and lane 32 counts the lower 32 of the 48 converged
// lanes.
// WAVE64: ballot 32, tail 0, halves 64, active 32
