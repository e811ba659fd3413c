// A block reduction templated over the block size, with a static __shared__
// array, an unrolled tail and a dim3 launch with three config arguments.
#include <cstdio>
#include <cuda_runtime.h>

template <unsigned int blockSize>
__device__ void warpReduce(volatile int *sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void reduce6(const int *g_idata, int *g_odata, unsigned int n) {
  __shared__ int sdata[blockSize];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + tid;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  sdata[tid] = 0;
  while (i < n) {
    sdata[tid] += g_idata[i] + (i + blockSize < n ? g_idata[i + blockSize] : 0);
    i += gridSize;
  }
  __syncthreads();
#pragma unroll
  for (unsigned int s = blockSize / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce<blockSize>(sdata, tid);
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}

int main() {
  const unsigned int n = 1u << 22;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, 1024 * sizeof(int));
  cudaMemset(in, 0, n * sizeof(int));
  dim3 block(256);
  dim3 grid(1024, 1, 1);
  reduce6<256><<<grid, block, 0>>>(in, out, n);
  reduce6<128><<<dim3(512), dim3(128), 0>>>(in, out, n);
  int result[1024];
  cudaMemcpy(result, out, sizeof(result), cudaMemcpyDeviceToHost);
  printf("%d\n", result[0]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
