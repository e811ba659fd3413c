// Occupancy queries and per-kernel attributes: the launch configuration
// comes from cudaOccupancyMaxPotentialBlockSize, the dynamic shared memory
// limit is raised with cudaFuncSetAttribute.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void __launch_bounds__(1024)
    square(int *array, int arrayCount) {
  extern __shared__ int tile[];
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < arrayCount) {
    tile[threadIdx.x] = array[idx];
    array[idx] = tile[threadIdx.x] * tile[threadIdx.x];
  }
}

int main() {
  int minGridSize = 0, blockSize = 0, maxActive = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, square, 0, 0);
  cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, square);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&maxActive, square, blockSize,
                                                blockSize * sizeof(int));
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&maxActive, (const void *)square,
                                                blockSize, 0);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, square);
  cudaFuncGetAttributes(&attr, (const void *)square);
  printf("regs %d, max threads %d, shared %zu, local %zu\n", attr.numRegs,
         attr.maxThreadsPerBlock, attr.sharedSizeBytes, attr.localSizeBytes);
  cudaFuncSetAttribute(square, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       64 * 1024);
  cudaFuncSetAttribute((const void *)square,
                       cudaFuncAttributePreferredSharedMemoryCarveout,
                       cudaSharedmemCarveoutMaxShared);
  cudaFuncSetCacheConfig(square, cudaFuncCachePreferShared);
  int n = 1 << 20;
  int *a;
  cudaMalloc(&a, n * sizeof(int));
  int gridSize = (n + blockSize - 1) / blockSize;
  square<<<gridSize, blockSize, blockSize * sizeof(int)>>>(a, n);
  cudaDeviceSynchronize();
  cudaFree(a);
  return 0;
}
