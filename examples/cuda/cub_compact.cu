//===- examples/cuda/cub_compact.cu - warp-aggregated atomics, compaction -===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Stream compaction (keep the positive elements) two ways, both built on
/// warp votes, in the style of NVIDIA's "Optimized Filtering with
/// Warp-Aggregated Atomics" (cuda-samples warpAggregatedAtomicsCG) and of
/// CUB's block-level select:
///  - filter_k: `atomicAggInc` takes `__activemask()` inside the divergent
///    `if (src[i] > 0)`, elects the lowest lane (`__ffs(mask) - 1`), which
///    does one `atomicAdd(ctr, __popc(mask))` for the warp, broadcasts the
///    old value with `__shfl_sync(mask, res, leader)`, and each lane adds
///    its rank `__popc(mask & lanemask_lt())`, where lanemask_lt is
///    `(1u << lane) - 1` with `lane = threadIdx.x % WARP_SZ`, WARP_SZ 32.
///    The output order depends on the atomics; the check sorts it.
///  - count_k / scatter_k: an order-preserving two-pass select: every lane
///    votes with `__ballot_sync(FULL_MASK, pred)`, lane 0 of each warp
///    stores `__popc(ballot)`, warp 0 scans the per-warp counts with
///    `__shfl_up_sync`, and each kept element lands at block offset + warp
///    offset + `__popc(ballot & lanemask_lt())`; the host scans the block
///    counts in between.
///
/// Warp-32 assumptions: masks are `unsigned int`, lanemask_lt is built from
/// `1u << lane`, WARP_SZ is 32 in the warp count of the shared arrays.
/// Renamed only, for a 64-lane wavefront: HIP's `__ballot_sync` and
/// `__activemask` return 64-bit masks, stored into `unsigned int` they lose
/// lanes 32..63, so `__popc` under-counts and the ranks collide; this is
/// the failure of FBGEMM's bucketized permute on MI300 (pytorch/FBGEMM PR
/// 5830: "__ballot_sync returns a 64-bit mask, so lanes 32-63 are silently
/// truncated") and of several HeCBench HIP ports (ORNL/HeCBench issues 177
/// and 167: ballot stored in int, `__popc` on it, `1 << lane` in 32 bits).
/// Here it shows as duplicate and missing output elements.
///
/// The data are integers; both outputs are compared exactly (the first
/// after sorting) and summarized with exact checksums.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define WARP_SZ 32
#define FULL_MASK 0xffffffff

static cudaError_t Debug(cudaError_t error, const char *filename, int line) {
  if (error)
    fprintf(stderr, "CUDA error %d [%s, %d]: %s\n", error, filename, line,
            cudaGetErrorString(error));
  return error;
}
#define CubDebug(e) Debug((cudaError_t)(e), __FILE__, __LINE__)
#define CubDebugExit(e)                                                        \
  if (CubDebug(e)) {                                                           \
    exit(1);                                                                   \
  }

__device__ __forceinline__ int lane_id() { return threadIdx.x % WARP_SZ; }

__device__ __forceinline__ unsigned int lanemask_lt() {
  return (1u << lane_id()) - 1u;
}

// One atomicAdd per warp instead of one per thread.
__device__ int atomicAggInc(int *ctr) {
  unsigned int mask = __activemask();
  int leader = __ffs(mask) - 1;
  int res = 0;
  if (lane_id() == leader)
    res = atomicAdd(ctr, __popc(mask));
  res = __shfl_sync(mask, res, leader);
  return res + __popc(mask & lanemask_lt());
}

__global__ void filter_k(int *dst, int *nres, const int *src, int n) {
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n;
       i += blockDim.x * gridDim.x) {
    if (src[i] > 0)
      dst[atomicAggInc(nres)] = src[i];
  }
}

template <int BLOCK_THREADS>
__global__ void count_k(const int *src, int n, int *block_counts) {
  constexpr int WARPS = BLOCK_THREADS / WARP_SZ;
  __shared__ int warp_counts[WARPS];
  const int i = blockIdx.x * BLOCK_THREADS + threadIdx.x;
  const bool keep = (i < n) && (src[i] > 0);
  unsigned int ballot = __ballot_sync(FULL_MASK, keep);
  const int warp = threadIdx.x / WARP_SZ;
  if (lane_id() == 0)
    warp_counts[warp] = __popc(ballot);
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < WARPS; ++w)
      total += warp_counts[w];
    block_counts[blockIdx.x] = total;
  }
}

template <int BLOCK_THREADS>
__global__ void scatter_k(const int *src, int n,
                          const int *__restrict__ block_offsets, int *dst) {
  constexpr int WARPS = BLOCK_THREADS / WARP_SZ;
  __shared__ int warp_offsets[WARPS];
  const int i = blockIdx.x * BLOCK_THREADS + threadIdx.x;
  const bool keep = (i < n) && (src[i] > 0);
  unsigned int ballot = __ballot_sync(FULL_MASK, keep);
  const int warp = threadIdx.x / WARP_SZ;
  const int lane = lane_id();
  if (lane == 0)
    warp_offsets[warp] = __popc(ballot);
  __syncthreads();

  // Warp 0: exclusive scan of the per-warp counts.
  if (warp == 0) {
    int count = (lane < WARPS) ? warp_offsets[lane] : 0;
    int incl = count;
#pragma unroll
    for (int off = 1; off < WARP_SZ; off <<= 1) {
      int t = __shfl_up_sync(FULL_MASK, incl, off);
      if (lane >= off)
        incl += t;
    }
    if (lane < WARPS)
      warp_offsets[lane] = incl - count;
  }
  __syncthreads();

  if (keep)
    dst[block_offsets[blockIdx.x] + warp_offsets[warp] +
        __popc(ballot & lanemask_lt())] = src[i];
}

int main() {
  const int n = 60000;
  const int BLOCK_THREADS = 256;

  std::vector<int> h_src(n);
  std::vector<int> expected;
  for (int i = 0; i < n; ++i) {
    h_src[i] = ((i * 7919) % 201) - 100;
    if (h_src[i] > 0)
      expected.push_back(h_src[i]);
  }
  const int n_expected = (int)expected.size();

  int *d_src = NULL, *d_dst = NULL, *d_nres = NULL;
  CubDebugExit(cudaMalloc((void **)&d_src, sizeof(int) * n));
  CubDebugExit(cudaMalloc((void **)&d_dst, sizeof(int) * n));
  CubDebugExit(cudaMalloc((void **)&d_nres, sizeof(int)));
  CubDebugExit(
      cudaMemcpy(d_src, h_src.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
  CubDebugExit(cudaMemset(d_nres, 0, sizeof(int)));

  // ---- warp-aggregated atomics -----------------------------------------
  filter_k<<<120, BLOCK_THREADS>>>(d_dst, d_nres, d_src, n);
  CubDebugExit(cudaGetLastError());
  int h_nres = 0;
  CubDebugExit(
      cudaMemcpy(&h_nres, d_nres, sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  long long agg_sum = 0;
  if (h_nres != n_expected) {
    printf("FAIL: filter_k kept %d elements, expected %d\n", h_nres,
           n_expected);
    ok = false;
  } else {
    std::vector<int> got(h_nres);
    CubDebugExit(cudaMemcpy(got.data(), d_dst, sizeof(int) * h_nres,
                            cudaMemcpyDeviceToHost));
    std::vector<int> want = expected;
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    for (int k = 0; k < h_nres; ++k)
      agg_sum += got[k];
    if (got != want) {
      printf("FAIL: filter_k output is not the kept elements\n");
      ok = false;
    }
  }
  printf("filter_k: kept %d of %d, sum = %lld\n", h_nres, n, agg_sum);

  // ---- order-preserving two-pass select ---------------------------------
  const int num_blocks = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
  int *d_counts = NULL, *d_offsets = NULL;
  CubDebugExit(cudaMalloc((void **)&d_counts, sizeof(int) * num_blocks));
  CubDebugExit(cudaMalloc((void **)&d_offsets, sizeof(int) * num_blocks));
  CubDebugExit(cudaMemset(d_dst, 0, sizeof(int) * n));
  count_k<BLOCK_THREADS><<<num_blocks, BLOCK_THREADS>>>(d_src, n, d_counts);
  CubDebugExit(cudaGetLastError());
  std::vector<int> h_counts(num_blocks), h_offsets(num_blocks);
  CubDebugExit(cudaMemcpy(h_counts.data(), d_counts, sizeof(int) * num_blocks,
                          cudaMemcpyDeviceToHost));
  int selected = 0;
  for (int b = 0; b < num_blocks; ++b) {
    h_offsets[b] = selected;
    selected += h_counts[b];
  }
  CubDebugExit(cudaMemcpy(d_offsets, h_offsets.data(),
                          sizeof(int) * num_blocks, cudaMemcpyHostToDevice));
  scatter_k<BLOCK_THREADS>
      <<<num_blocks, BLOCK_THREADS>>>(d_src, n, d_offsets, d_dst);
  CubDebugExit(cudaGetLastError());
  std::vector<int> h_dst(n);
  CubDebugExit(cudaMemcpy(h_dst.data(), d_dst, sizeof(int) * n,
                          cudaMemcpyDeviceToHost));

  long long weighted = 0;
  if (selected != n_expected) {
    printf("FAIL: select counted %d elements, expected %d\n", selected,
           n_expected);
    ok = false;
  } else {
    for (int k = 0; k < selected; ++k) {
      weighted += (long long)(k + 1) * h_dst[k];
      if (ok && h_dst[k] != expected[k]) {
        printf("FAIL: select out[%d] = %d, expected %d\n", k, h_dst[k],
               expected[k]);
        ok = false;
      }
    }
  }
  printf("select: kept %d of %d in order, weighted checksum = %lld\n",
         selected, n, weighted);

  CubDebugExit(cudaFree(d_src));
  CubDebugExit(cudaFree(d_dst));
  CubDebugExit(cudaFree(d_nres));
  CubDebugExit(cudaFree(d_counts));
  CubDebugExit(cudaFree(d_offsets));
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
