// A portability macro tested before any include: nvcc predefines __CUDACC__,
// clang does not (its own CUDA headers, and these declarations, define it),
// so without -include cuda_runtime.h the helper below is host only and the
// kernel cannot call it.
#ifdef __CUDACC__
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

#include <cstdio>
#include <cuda_runtime.h>

HOST_DEVICE inline float lerp(float a, float b, float t) {
  return a + t * (b - a);
}

__global__ void blend(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = lerp(x[i], 1.0f, 0.5f);
}

int main() {
  float *x = nullptr;
  cudaMalloc(&x, 64 * sizeof(float));
  blend<<<1, 64>>>(x, 64);
  printf("%f\n", lerp(0.0f, 1.0f, 0.25f));
  return 0;
}
// CHECK: cudacc_first.cu:21:12: error: no matching function for call to 'lerp'
