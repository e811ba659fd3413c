// Dynamic shared memory: `extern __shared__` arrays sized by the third
// launch argument, and a raw aligned buffer carved into two typed arrays.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *data, int n, float factor) {
  extern __shared__ float sdata[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[threadIdx.x] = i < n ? data[i] : 0.0f;
  __syncthreads();
  if (i < n)
    data[i] = sdata[blockDim.x - 1 - threadIdx.x] * factor;
}

__global__ void split(const int *keys, const float *vals, int n) {
  extern __shared__ __align__(16) unsigned char smem[];
  int *skeys = reinterpret_cast<int *>(smem);
  float *svals = reinterpret_cast<float *>(smem + blockDim.x * sizeof(int));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    skeys[threadIdx.x] = keys[i];
    svals[threadIdx.x] = vals[i];
  }
  __syncthreads();
}

int main() {
  const int n = 4096, threads = 128;
  float *d = nullptr;
  int *k = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&k, n * sizeof(int));
  size_t shmem = threads * sizeof(float);
  scale<<<n / threads, threads, shmem>>>(d, n, 2.0f);
  split<<<n / threads, threads, threads * (sizeof(int) + sizeof(float))>>>(k, d, n);
  cudaError_t err = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(err));
  cudaFree(d);
  cudaFree(k);
  return err == cudaSuccess ? 0 : 1;
}
