// printf and assert in device code, with <cstdio> and <cassert> included
// the way host code includes them.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__device__ int checkedIndex(int i, int n) {
  assert(i >= 0 && i < n);
  return i;
}

__global__ void hello(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    printf("Hello from block %u, thread %u (global %d): %d\n", blockIdx.x,
           threadIdx.x, i, checkedIndex(i, n));
  if (i == 0)
    printf("grid %u x %u, block %u x %u x %u, warp %d\n", gridDim.x, gridDim.y,
           blockDim.x, blockDim.y, blockDim.z, warpSize);
}

int main() {
  cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20);
  hello<<<2, 4>>>(8);
  cudaDeviceSynchronize();
  printf("host done\n");
  return 0;
}
