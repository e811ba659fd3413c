// A device query: device count and properties (the members CUDA 12 and 13
// share, and clockRate where the release still has it), attributes,
// versions, memory information.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    printf("no CUDA device\n");
    return 0;
  }
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  printf("driver %d, runtime %d, headers %d\n", driver, runtime,
         CUDART_VERSION);
  for (int dev = 0; dev < count; ++dev) {
    cudaSetDevice(dev);
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, dev);
    printf("%d: %s, sm_%d%d, %zu MiB, %d SMs\n", dev, p.name, p.major, p.minor,
           p.totalGlobalMem >> 20, p.multiProcessorCount);
    printf("  shared/block %zu, shared/SM %zu, regs/block %d, warp %d\n",
           p.sharedMemPerBlock, p.sharedMemPerMultiprocessor, p.regsPerBlock,
           p.warpSize);
    printf("  threads/block %d, threads/SM %d, block %d x %d x %d, "
           "grid %d x %d x %d\n",
           p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor,
           p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2],
           p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    printf("  L2 %d, bus %d bits, cooperative %d, managed %d\n", p.l2CacheSize,
           p.memoryBusWidth, p.cooperativeLaunch, p.concurrentManagedAccess);
#if CUDART_VERSION < 13000
    printf("  clock %d kHz, memory clock %d kHz\n", p.clockRate,
           p.memoryClockRate);
#endif
    int smCount = 0, major = 0;
    cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    size_t freeMem = 0, totalMem = 0;
    cudaMemGetInfo(&freeMem, &totalMem);
    printf("  %d SMs, cc %d, %zu of %zu bytes free\n", smCount, major, freeMem,
           totalMem);
  }
  int current = -1;
  cudaGetDevice(&current);
  cudaError_t e = cudaPeekAtLastError();
  printf("device %d, last error %s (%s)\n", current, cudaGetErrorName(e),
         cudaGetErrorString(e));
  cudaDeviceReset();
  return 0;
}
