// The pre-CUDA 9 warp shuffle without a mask. It parses (with clang's
// deprecation warning, as under nvcc's host pass) so that the tool can
// refuse it with a located error; nvcc itself rejects it in device code for
// sm_70 and later, which is every architecture CUDA 13 supports.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void oldWarpSum(float *data) {
  float v = data[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  if (threadIdx.x == 0)
    data[0] = v;
}

int main() {
  float *d;
  cudaMalloc(&d, 32 * sizeof(float));
  oldWarpSum<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// CHECK: deprecated_shfl.cu:11:10: warning: '__shfl_down' is deprecated: __shfl_down() is deprecated in favor of __shfl_down_sync() and is not valid on sm_70 and later [-Wdeprecated-declarations]
// NVCC: deprecated_shfl.cu(11): error: identifier "__shfl_down" is undefined
