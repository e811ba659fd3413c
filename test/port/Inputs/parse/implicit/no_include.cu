// No CUDA header at all: nvcc includes <cuda_runtime.h> in every CUDA
// source, so this compiles; with the declarations it parses only when the
// parse does the same (-include cuda_runtime.h).
#include <cstdio>

__global__ void iota(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = i;
  __syncthreads();
}

int main() {
  int *a = nullptr;
  cudaMalloc(&a, 256 * sizeof(int));
  iota<<<1, 256>>>(a, 256);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(a);
  return 0;
}
// CHECK: no_include.cu:6:1: error: unknown type name '__global__'
