//===- examples/cuda/kepler_reduce.cu - "Faster Reductions on Kepler" -----===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Device-wide sums in the style of the NVIDIA developer blog post "Faster
/// Parallel Reductions on Kepler" (J. Luitjens), in its CUDA 9 form with
/// the *_sync shuffles, which many projects copied verbatim:
///  - warpReduceSum: `for (int offset = warpSize / 2; offset > 0; offset
///    /= 2) val += __shfl_down_sync(0xffffffff, val, offset);`;
///  - blockReduceSum: `static __shared__ int shared[32]` (the most warps a
///    block can have), `lane = threadIdx.x % warpSize`, `wid = threadIdx.x /
///    warpSize`, and `(threadIdx.x < blockDim.x / warpSize) ? shared[lane]
///    : 0` into the first warp;
///  - deviceReduceKernel: a grid-stride loop, a block sum per block, then
///    the same kernel again with one block of 1024 threads over the block
///    sums (in place);
///  - deviceReduceWarpAtomicKernel and deviceReduceBlockAtomicKernel: lane
///    0 of every warp (`(threadIdx.x & (warpSize - 1)) == 0`), or thread 0
///    of every block, adds to the result with atomicAdd.
///
/// Warp-32 assumptions: only the 32-bit full mask and the 32 slots; the
/// rest is written against warpSize. Renamed only, for a 64-lane
/// wavefront: `__shfl_down_sync(0xffffffff, ...)` does not compile on ROCm
/// 6.2 and later (a 64-bit mask is required, ROCm/hip issue 3667; before
/// that HIP had no *_sync shuffles at all and AMD said "any code using a
/// 32 bit mask is already broken", ROCm/hip issue 1491). With the mask
/// widened it is right at 64: warpSize / 2 starts the tree at 32, and 1024
/// threads are 16 wavefronts, within the 32 slots.
///
/// The data are integers; the three sums are compared exactly.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

__inline__ __device__ int warpReduceSum(int val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

__inline__ __device__ int blockReduceSum(int val) {
  static __shared__ int shared[32]; // one slot per possible warp
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;

  val = warpReduceSum(val);

  if (lane == 0)
    shared[wid] = val;

  __syncthreads();

  // Lanes past the number of warps contribute nothing.
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;

  if (wid == 0)
    val = warpReduceSum(val);

  return val;
}

__global__ void deviceReduceKernel(int *in, int *out, int N) {
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0)
    out[blockIdx.x] = sum;
}

__global__ void deviceReduceWarpAtomicKernel(int *in, int *out, int N) {
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = warpReduceSum(sum);
  if ((threadIdx.x & (warpSize - 1)) == 0)
    atomicAdd(out, sum);
}

__global__ void deviceReduceBlockAtomicKernel(int *in, int *out, int N) {
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0)
    atomicAdd(out, sum);
}

void deviceReduce(int *in, int *out, int N) {
  int threads = 512;
  int blocks = min((N + threads - 1) / threads, 256);

  deviceReduceKernel<<<blocks, threads>>>(in, out, N);
  deviceReduceKernel<<<1, 1024>>>(out, out, blocks);
}

void deviceReduceWarpAtomic(int *in, int *out, int N) {
  int threads = 256;
  int blocks = min((N + threads - 1) / threads, 128);
  cudaMemsetAsync(out, 0, sizeof(int));
  deviceReduceWarpAtomicKernel<<<blocks, threads>>>(in, out, N);
}

void deviceReduceBlockAtomic(int *in, int *out, int N) {
  int threads = 384;
  int blocks = min((N + threads - 1) / threads, 200);
  cudaMemsetAsync(out, 0, sizeof(int));
  deviceReduceBlockAtomicKernel<<<blocks, threads>>>(in, out, N);
}

int main() {
  const int N = 250000;
  std::vector<int> h_in(N);
  long long expected = 0;
  for (int i = 0; i < N; ++i) {
    h_in[i] = (i % 19) - 9 + ((i % 1000) == 0 ? 500 : 0);
    expected += h_in[i];
  }

  int *d_in, *d_out;
  cudaMalloc(&d_in, N * sizeof(int));
  cudaMalloc(&d_out, 1024 * sizeof(int));
  cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);

  bool ok = true;
  const char *names[] = {"two-pass", "warp atomics", "block atomics"};
  for (int v = 0; v < 3; ++v) {
    if (v == 0)
      deviceReduce(d_in, d_out, N);
    else if (v == 1)
      deviceReduceWarpAtomic(d_in, d_out, N);
    else
      deviceReduceBlockAtomic(d_in, d_out, N);
    int result = 0;
    cudaMemcpy(&result, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%s: sum = %d\n", names[v], result);
    if ((long long)result != expected) {
      printf("FAIL: %s sum %d, expected %lld\n", names[v], result, expected);
      ok = false;
    }
  }

  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(err));
    ok = false;
  }
  cudaFree(d_in);
  cudaFree(d_out);
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
