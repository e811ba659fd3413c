//===- examples/cuda/cs_reduce6.cu - cuda-samples reduction, kernel 6 -----===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A multi-pass sum in the shape of NVIDIA cuda-samples' `reduction`
/// (2_Concepts_and_Techniques/reduction, reduce6 and its host driver):
///  - `template <class T, unsigned int blockSize, bool nIsPow2>`, with the
///    shared buffer reached through a `SharedMemory<T>` struct over
///    `extern __shared__`, sized at launch (`threads * sizeof(T)`, doubled
///    for blocks of 32 or fewer threads);
///  - a grid-stride loop that, when n is a power of two, reads two elements
///    per step (`i` and `i + blockSize`);
///  - a shared-memory tree down to 64 partials, then the warp-synchronous
///    tail: `if (tid < 32)` adds `sdata[tid + 32]` and finishes with
///    `__shfl_down_sync(0xffffffff, mySum, offset)` from `warpSize / 2`;
///  - the host picks threads and blocks with getNumBlocksAndThreads
///    (nextPow2, maxThreads 256, maxBlocks 64), instantiates the kernel in a
///    switch over the block size, and reduces the per-block partials again
///    on the GPU until one value is left.
///
/// Warp-32 assumptions: the tail's `tid < 32` and `sdata[tid + 32]` say
/// that the first 32 threads are one whole warp, while the shuffle loop
/// starts from `warpSize / 2`. Renamed only, for a 64-lane wavefront: the
/// 32-bit mask does not compile on ROCm 6.2 and later; with it widened,
/// warpSize / 2 is 32, so lanes 0..31 shuffle down by 32 from lanes 32..63,
/// which are outside `tid < 32` and hold no partial sums: on hardware
/// without independent thread scheduling those lanes are masked off and
/// the result is undefined (ROCm's own answer in ROCm/legacy-rocm-build
/// issue 5241 is that *_sync functions need the whole mask converged).
///
/// The data are integers; every pass is exact, and the result is printed.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

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

// Dynamically sized shared memory of element type T, through one untyped
// extern declaration (a typed extern __shared__ per T would clash).
template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(const T *__restrict__ g_idata,
                        T *__restrict__ g_odata, unsigned int n) {
  T *sdata = SharedMemory<T>();

  unsigned int tid = threadIdx.x;
  unsigned int gridSize = blockSize * gridDim.x;
  T mySum = 0;

  // Each thread first sums as many elements as the grid needs it to.
  if (nIsPow2) {
    unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
    gridSize = gridSize << 1;
    while (i < n) {
      mySum += g_idata[i];
      if ((i + blockSize) < n)
        mySum += g_idata[i + blockSize];
      i += gridSize;
    }
  } else {
    unsigned int i = blockIdx.x * blockSize + threadIdx.x;
    while (i < n) {
      mySum += g_idata[i];
      i += gridSize;
    }
  }

  sdata[tid] = mySum;
  __syncthreads();

  // Tree in shared memory until 64 partials are left.
#pragma unroll
  for (unsigned int s = blockSize / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }

  // The last 64 partials: one warp, no more barriers.
  if (tid < 32) {
    if (blockSize >= 64)
      mySum += sdata[tid + 32];
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
      mySum += __shfl_down_sync(0xffffffff, mySum, offset);
  }

  if (tid == 0)
    g_odata[blockIdx.x] = mySum;
}

static unsigned int nextPow2(unsigned int x) {
  --x;
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  return ++x;
}

static bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }

static void getNumBlocksAndThreads(int n, int maxBlocks, int maxThreads,
                                   int &blocks, int &threads) {
  threads = (n < maxThreads * 2) ? nextPow2((n + 1) / 2) : maxThreads;
  if (threads < 32)
    threads = 32; // the tail is written for at least one whole warp
  blocks = (n + (threads * 2 - 1)) / (threads * 2);
  if (blocks > maxBlocks)
    blocks = maxBlocks;
}

template <class T>
static void reduce(int size, int threads, int blocks, const T *d_idata,
                   T *d_odata) {
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 1, 1);
  // For 32 threads or fewer, the samples allocate two elements per thread
  // so that indexing past the block in the tree stays in bounds.
  int smemSize =
      (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);

  if (isPow2(size)) {
    switch (threads) {
    case 512:
      reduce6<T, 512, true>
          <<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 256:
      reduce6<T, 256, true>
          <<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 128:
      reduce6<T, 128, true>
          <<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 64:
      reduce6<T, 64, true>
          <<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 32:
      reduce6<T, 32, true>
          <<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    }
  } else {
    switch (threads) {
    case 512:
      reduce6<T, 512, false>
          <<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 256:
      reduce6<T, 256, false>
          <<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 128:
      reduce6<T, 128, false>
          <<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 64:
      reduce6<T, 64, false>
          <<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 32:
      reduce6<T, 32, false>
          <<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    }
  }
}

/// Reduces \p h_idata on the GPU, pass after pass, and returns the sum.
template <class T>
static T benchmarkReduce(const std::vector<T> &h_idata, int maxThreads,
                         int maxBlocks) {
  const int n = (int)h_idata.size();
  int numBlocks = 0, numThreads = 0;
  getNumBlocksAndThreads(n, maxBlocks, maxThreads, numBlocks, numThreads);

  T *d_idata = NULL, *d_odata = NULL, *d_intermediateSums = NULL;
  checkCudaErrors(cudaMalloc((void **)&d_idata, n * sizeof(T)));
  checkCudaErrors(cudaMalloc((void **)&d_odata, numBlocks * sizeof(T)));
  checkCudaErrors(
      cudaMalloc((void **)&d_intermediateSums, numBlocks * sizeof(T)));
  checkCudaErrors(cudaMemcpy(d_idata, h_idata.data(), n * sizeof(T),
                             cudaMemcpyHostToDevice));

  reduce<T>(n, numThreads, numBlocks, d_idata, d_odata);
  checkCudaErrors(cudaGetLastError());

  // Sum the partial block sums on the GPU.
  int s = numBlocks;
  while (s > 1) {
    int threads = 0, blocks = 0;
    getNumBlocksAndThreads(s, maxBlocks, maxThreads, blocks, threads);
    checkCudaErrors(cudaMemcpy(d_intermediateSums, d_odata, s * sizeof(T),
                               cudaMemcpyDeviceToDevice));
    reduce<T>(s, threads, blocks, d_intermediateSums, d_odata);
    checkCudaErrors(cudaGetLastError());
    s = blocks;
  }

  T gpu_result = 0;
  checkCudaErrors(
      cudaMemcpy(&gpu_result, d_odata, sizeof(T), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d_idata));
  checkCudaErrors(cudaFree(d_odata));
  checkCudaErrors(cudaFree(d_intermediateSums));
  return gpu_result;
}

int main(int argc, char **argv) {
  const int maxThreads = 256;
  const int maxBlocks = 64;
  const int sizes[] = {200000, 1 << 17, 5000};
  bool ok = true;

  for (int size : sizes) {
    std::vector<int> h_idata(size);
    long long cpu_result = 0;
    for (int i = 0; i < size; ++i) {
      // Small integers, as the samples use (there: rand() & 0xFF).
      h_idata[i] = ((i * 7 + 3) % 255) - 120;
      cpu_result += h_idata[i];
    }
    int gpu_result = benchmarkReduce<int>(h_idata, maxThreads, maxBlocks);
    printf("reduce6: n = %d, sum = %d\n", size, gpu_result);
    if ((long long)gpu_result != cpu_result) {
      printf("FAIL: n = %d: GPU result = %d, CPU result = %lld\n", size,
             gpu_result, cpu_result);
      ok = false;
    }
  }

  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
