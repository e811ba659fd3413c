// __constant__ and __device__ variables written and read from the host:
// cudaMemcpyToSymbol and cudaMemcpyFromSymbol in their template form (the
// symbol itself), the asynchronous form, and a symbol's address.
#include <cstdio>
#include <cuda_runtime.h>

#define RADIUS 3
__constant__ float stencilWeights[2 * RADIUS + 1];
__constant__ int params[2];
__device__ float deviceTotal;
__device__ unsigned int deviceCounter = 0;

__global__ void applyStencil(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < RADIUS || i >= n - RADIUS)
    return;
  float sum = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += stencilWeights[k + RADIUS] * in[i + k];
  out[i] = sum * params[0];
  atomicAdd(&deviceTotal, sum);
  atomicInc(&deviceCounter, 0xffffffffu);
}

int main() {
  float h_weights[2 * RADIUS + 1];
  for (int k = 0; k < 2 * RADIUS + 1; ++k)
    h_weights[k] = 1.0f / (2 * RADIUS + 1);
  cudaMemcpyToSymbol(stencilWeights, h_weights, sizeof(h_weights));
  int h_params[2] = {2, 0};
  cudaMemcpyToSymbol(params, h_params, sizeof(int), 0, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbolAsync(params, h_params + 1, sizeof(int), sizeof(int),
                          cudaMemcpyHostToDevice, 0);
  float zero = 0.0f;
  cudaMemcpyToSymbol(deviceTotal, &zero, sizeof(float));
  float *in, *out;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  applyStencil<<<4, 256>>>(in, out, 1024);
  float total = 0.0f;
  cudaMemcpyFromSymbol(&total, deviceTotal, sizeof(float));
  unsigned int count = 0;
  cudaMemcpyFromSymbol(&count, deviceCounter, sizeof(count), 0,
                       cudaMemcpyDeviceToHost);
  float *totalPtr = nullptr;
  cudaGetSymbolAddress((void **)&totalPtr, deviceTotal);
  size_t size = 0;
  cudaGetSymbolSize(&size, stencilWeights);
  printf("%f %u %p %zu\n", total, count, (void *)totalPtr, size);
  return 0;
}
