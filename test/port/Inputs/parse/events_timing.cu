// Timing with events, wrapped in a host lambda that launches the kernel.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int N = 1 << 20;
  float *x, *y;
  cudaMalloc(&x, N * sizeof(float));
  cudaMalloc(&y, N * sizeof(float));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop, cudaEventBlockingSync);
  auto timeIt = [&](auto &&launch) {
    cudaEventRecord(start);
    launch();
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    return ms;
  };
  float ms = timeIt([&] { saxpy<<<(N + 255) / 256, 256>>>(N, 2.0f, x, y); });
  printf("saxpy: %.3f ms, %.2f GB/s\n", ms, N * 4 * 3 / ms / 1e6);
  if (cudaEventQuery(stop) != cudaSuccess)
    printf("not done\n");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
