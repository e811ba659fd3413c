//===- examples/cuda/coop_grid_sync.cu - this_grid().sync(), cooperative --===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A single-kernel, three-phase computation with grid-wide barriers, in the
/// style of NVIDIA cuda-samples' reductionMultiBlockCG:
///  - the kernel takes `cg::grid_group grid = cg::this_grid()` and calls
///    `grid.sync()` between phases: (1) each block sums its grid-stride
///    share and counts the values above a threshold, (2) block 0 reduces
///    the per-block partials, (3) every thread rewrites its elements
///    against the grid-wide totals;
///  - block sums go through `cg::tiled_partition<32>(cta)`: each tile
///    reduces with `tile32.shfl_down(v, i)` from `tile32.size() / 2`, lane
///    0 stores into shared memory at `tile32.meta_group_rank()`, and
///    thread 0 adds the tiles' sums;
///  - the host checks `cudaDevAttrCooperativeLaunch`, sizes the grid from
///    `cudaOccupancyMaxActiveBlocksPerMultiprocessor` times
///    `cudaDeviceProp::multiProcessorCount` (capped), and launches with
///    `cudaLaunchCooperativeKernel` and a `void *args[]` array.
///
/// Warp-32 assumptions: the tile of 32 and the shared array of
/// `blockDim / 32` tile sums. Renamed only, for a 64-lane wavefront: HIP
/// supports grid groups and hipLaunchCooperativeKernel, and
/// tiled_partition<32> gives two tiles per wavefront, so the program is
/// right as written at 64 provided the tile's shuffles stay within its 32
/// lanes and tile 1 of a wavefront reads its own lanes. What does not
/// carry over is the grid size: it is whatever the occupancy query says,
/// so it differs between devices; results must not depend on it, and here
/// they do not (integer sums, and the output printed is grid-independent).
///
/// All arithmetic is on 64-bit integers and checked exactly.
///
//===----------------------------------------------------------------------===//

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

template <typename T>
void check(T result, char const *const func, const char *const file,
           int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line,
            static_cast<unsigned int>(result), cudaGetErrorName(result), func);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

/// The block's sum of \p v, valid in thread 0. \p sdata holds one element
/// per 32-thread tile.
__device__ long long reduceBlock(long long v, long long *sdata,
                                 const cg::thread_block &cta) {
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  for (int i = tile32.size() / 2; i > 0; i >>= 1)
    v += tile32.shfl_down(v, i);
  if (tile32.thread_rank() == 0)
    sdata[tile32.meta_group_rank()] = v;
  cta.sync();
  long long total = 0;
  if (cta.thread_rank() == 0) {
    for (unsigned int t = 0; t < tile32.meta_group_size(); ++t)
      total += sdata[t];
  }
  cta.sync(); // sdata is reused by the next call
  return total;
}

/// partials has room for 2 * gridDim.x values; totals for 2.
__global__ void threePhaseKernel(const int *g_in, long long *g_out,
                                 long long *partials, long long *totals,
                                 int threshold, unsigned int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  extern __shared__ long long sdata[];

  // Phase 1: per-block sum and count above threshold.
  long long sum = 0, above = 0;
  for (unsigned int i = grid.thread_rank(); i < n; i += grid.size()) {
    sum += g_in[i];
    above += (g_in[i] > threshold) ? 1 : 0;
  }
  sum = reduceBlock(sum, sdata, block);
  above = reduceBlock(above, sdata, block);
  if (block.thread_rank() == 0) {
    partials[2 * blockIdx.x] = sum;
    partials[2 * blockIdx.x + 1] = above;
  }

  grid.sync();

  // Phase 2: block 0 reduces the per-block partials.
  if (blockIdx.x == 0) {
    long long s = 0, a = 0;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
      s += partials[2 * b];
      a += partials[2 * b + 1];
    }
    s = reduceBlock(s, sdata, block);
    a = reduceBlock(a, sdata, block);
    if (threadIdx.x == 0) {
      totals[0] = s;
      totals[1] = a;
    }
  }

  grid.sync();

  // Phase 3: every element against the grid-wide totals.
  const long long total = totals[0], count = totals[1];
  for (unsigned int i = grid.thread_rank(); i < n; i += grid.size())
    g_out[i] = (long long)g_in[i] * count - total;
}

int main(int argc, char **argv) {
  int dev = 0;
  checkCudaErrors(cudaSetDevice(dev));
  cudaDeviceProp deviceProp;
  checkCudaErrors(cudaGetDeviceProperties(&deviceProp, dev));
  int supportsCoopLaunch = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&supportsCoopLaunch,
                                         cudaDevAttrCooperativeLaunch, dev));
  if (!supportsCoopLaunch) {
    printf("FAIL: device does not support cooperative launch\n");
    return 2;
  }
  fprintf(stderr, "GPU Device %d: \"%s\" with compute capability %d.%d\n",
          dev, deviceProp.name, deviceProp.major, deviceProp.minor);

  const unsigned int n = 200003;
  const int threshold = 40;
  std::vector<int> h_in(n);
  for (unsigned int i = 0; i < n; ++i)
    h_in[i] = (int)((i * 2654435761u) % 101u);

  const int numThreads = 256;
  const size_t smemSize = (numThreads / 32) * sizeof(long long);
  int numBlocksPerSm = 0;
  checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &numBlocksPerSm, threePhaseKernel, numThreads, smemSize));
  int numBlocks = numBlocksPerSm * deviceProp.multiProcessorCount;
  if (numBlocks > 128)
    numBlocks = 128; // enough for this size; all must be co-resident
  if (numBlocks < 1) {
    printf("FAIL: kernel cannot be resident\n");
    return 2;
  }
  fprintf(stderr, "Launching %d blocks of %d threads (%d per SM)\n",
          numBlocks, numThreads, numBlocksPerSm);

  int *d_in;
  long long *d_out, *d_partials, *d_totals;
  checkCudaErrors(cudaMalloc(&d_in, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_out, n * sizeof(long long)));
  checkCudaErrors(cudaMalloc(&d_partials, 2 * numBlocks * sizeof(long long)));
  checkCudaErrors(cudaMalloc(&d_totals, 2 * sizeof(long long)));
  checkCudaErrors(
      cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  unsigned int n_arg = n;
  int threshold_arg = threshold;
  void *kernelArgs[] = {(void *)&d_in,       (void *)&d_out,
                        (void *)&d_partials, (void *)&d_totals,
                        (void *)&threshold_arg, (void *)&n_arg};
  dim3 dimBlock(numThreads, 1, 1);
  dim3 dimGrid(numBlocks, 1, 1);
  checkCudaErrors(cudaLaunchCooperativeKernel((void *)threePhaseKernel,
                                              dimGrid, dimBlock, kernelArgs,
                                              smemSize, NULL));
  checkCudaErrors(cudaDeviceSynchronize());

  std::vector<long long> h_out(n), h_totals(2);
  checkCudaErrors(cudaMemcpy(h_out.data(), d_out, n * sizeof(long long),
                             cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(h_totals.data(), d_totals, 2 * sizeof(long long),
                             cudaMemcpyDeviceToHost));

  long long total = 0, count = 0;
  for (unsigned int i = 0; i < n; ++i) {
    total += h_in[i];
    count += h_in[i] > threshold;
  }
  bool ok = true;
  if (h_totals[0] != total || h_totals[1] != count) {
    printf("FAIL: totals %lld and %lld, expected %lld and %lld\n",
           h_totals[0], h_totals[1], total, count);
    ok = false;
  }
  long long checksum = 0;
  for (unsigned int i = 0; i < n; ++i) {
    long long want = (long long)h_in[i] * count - total;
    checksum += h_out[i] % 1000003;
    if (ok && h_out[i] != want) {
      printf("FAIL: out[%u] = %lld, expected %lld\n", i, h_out[i], want);
      ok = false;
    }
  }
  printf("three-phase: n = %u, sum = %lld, above %d = %lld\n", n,
         h_totals[0], threshold, h_totals[1]);
  printf("three-phase: output checksum = %lld\n", checksum);

  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_out));
  checkCudaErrors(cudaFree(d_partials));
  checkCudaErrors(cudaFree(d_totals));
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
