// The CUDA 12 API that CUDA 13 removed: cudaDeviceProp::clockRate and the
// cudaMemPrefetchAsync and cudaMemAdvise that take a device number. The
// declarations describe CUDA 12.8 and declare CUDA 13's forms too, so code
// written for either parses; nvcc 13 rejects these.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("%d kHz\n", prop.clockRate);
  float *x;
  cudaMallocManaged(&x, 1024);
  cudaMemAdvise(x, 1024, cudaMemAdviseSetReadMostly, 0);
  cudaMemPrefetchAsync(x, 1024, 0);
  return 0;
}
// NVCC: cuda12_api.cu(11): error: class "cudaDeviceProp" has no member "clockRate"
