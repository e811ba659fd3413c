// A grid-wide barrier (this_grid().sync()) in a kernel launched with
// cudaLaunchCooperativeKernel, sized by the occupancy API, both through the
// C form (void * kernel, void ** arguments) and the C++ template.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void twoPhase(float *data, float *sums, int n) {
  cg::grid_group grid = cg::this_grid();
  float local = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
       i += grid.size())
    local += data[i];
  atomicAdd(&sums[0], local);
  grid.sync();
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
       i += grid.num_threads())
    data[i] /= sums[0];
  if (grid.is_valid() && grid.block_rank() == 0)
    cg::sync(grid);
}

int main() {
  int dev = 0, supports = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, dev);
  if (!supports) {
    printf("no cooperative launch\n");
    return 0;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  int blocksPerSm = 0, threads = 256;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, twoPhase,
                                                threads, 0);
  dim3 grid(prop.multiProcessorCount * blocksPerSm), block(threads);
  int n = 1 << 20;
  float *data, *sums;
  cudaMalloc(&data, n * sizeof(float));
  cudaMalloc(&sums, sizeof(float));
  void *args[] = {&data, &sums, &n};
  cudaError_t e = cudaLaunchCooperativeKernel((void *)twoPhase, grid, block,
                                              args, 0, nullptr);
  if (e == cudaSuccess)
    e = cudaLaunchCooperativeKernel(twoPhase, grid, block, args);
  printf("%s\n", cudaGetErrorString(e));
  return 0;
}
