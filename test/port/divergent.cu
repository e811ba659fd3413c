// CUDA's warp collectives in divergent code: the lanes that take part are
// named (by the mask, or by __activemask's converged lanes), so part of a
// warp may call them, and the port does not warn (hpp-divergent-warp-op is
// for the dialect, whose collectives take the whole warp). The thread
// index reaches the analyses through clang's CUDA front end, where
// `threadIdx.x` is a property (lib/Analysis/LaneId.cpp): the volatile
// check below sees it. Right at 32 and 64 lanes.
// RUN: %hpp_rewrite --port %s -o %t.cpp -- 2>&1 | FileCheck %s --implicit-check-not='[hpp-'
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp

#include <cstdio>
#include <cuda_runtime.h>

// The lower half of each warp sums itself under a 16-lane mask.
__global__ void lowerHalf(int *out) {
  int v = 1;
  if ((threadIdx.x & 31) < 16) {
    for (int d = 8; d > 0; d /= 2)
      v += __shfl_down_sync(0xffffu, v, d);
    if ((threadIdx.x & 31) == 0)
      atomicAdd(&out[0], v);
  }
}

// The odd lanes count themselves through the converged lanes' mask.
__global__ void oddLanes(int *out) {
  if (threadIdx.x % 2 == 1) {
    unsigned peers = __activemask();
    if ((threadIdx.x & 31) == 1)
      atomicAdd(&out[1], __popc(peers));
  }
}

// A warp-synchronous tail through volatile memory with no __syncwarp
// between its steps: the check finds the lanes through threadIdx itself.
// (Racy, so it is compiled, not run.)
__global__ void tail(int *out) {
  __shared__ volatile int s[64];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x < 32) {
    s[threadIdx.x] += s[threadIdx.x + 32];
    // CHECK: divergent.cu:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}[hpp-cuda-volatile-warp]
    s[threadIdx.x] += s[threadIdx.x + 16];
    if (threadIdx.x == 0)
      out[2] = s[0];
  }
}

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 3 * sizeof(int));
  cudaMemset(d, 0, 3 * sizeof(int));
  lowerHalf<<<1, 128>>>(d);
  oddLanes<<<1, 96>>>(d);
  int h[3];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("lower halves %d, odd lanes %d\n", h[0], h[1]);
  return 0;
}
// OUT: lower halves 64, odd lanes 48
