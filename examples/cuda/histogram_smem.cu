//===- examples/cuda/histogram_smem.cu - privatized shared histogram ------===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Histograms with shared-memory privatization, in the style of RAPIDS
/// cuML / RAFT's stats histogram (HistTypeSmem: one copy per block) and of
/// cuda-samples' histogram256 (one sub-histogram per warp, WARP_COUNT 6,
/// `threadIdx.x >> LOG2_WARP_SIZE` picking the copy, to cut shared-atomic
/// contention):
///  - histogram_block: one histogram per block in `extern __shared__
///    unsigned int smem[]`, zeroed cooperatively, a grid-stride loop doing
///    `atomicAdd(&smem[bin], 1)`, then the block's nonzero bins added to
///    the global histogram with atomicAdd;
///  - histogram_warp: one sub-histogram per 32-thread warp,
///    `smem + (threadIdx.x >> 5) * NBINS`, the host sizing the dynamic
///    shared memory as `(threads / 32) * NBINS * sizeof(unsigned int)`, and
///    the block folding its warps' copies before the global atomics;
///  - two inputs: bytes (256 bins) and 32-bit keys hashed to 64 bins by a
///    multiplicative hash (`(k * 2654435761u) >> 26`).
///
/// Warp-32 assumptions: only in the warp-private variant, where the warp
/// number picks a copy. There is no cross-lane operation, so the program
/// is right at 64 as written: on a 64-lane wavefront `threadIdx.x >> 5`
/// still names 32-thread groups, the host still allocates threads / 32
/// copies, and the shared atomics make the counts exact whichever threads
/// share a copy. A port that rewrites the kernel's `>> 5` to divide by
/// warpSize but keeps the host's `/ 32` only wastes shared memory; one that
/// rewrites the host but not the kernel overruns it (copies up to
/// threads / 32 - 1 indexed into an allocation of threads / 64).
///
/// Counts are integers, checked exactly; the printed lines are totals and
/// checksums of the bins.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <int NBINS, typename BinOp, typename T>
__global__ void histogram_block(const T *__restrict__ in,
                                unsigned int *__restrict__ out, int n,
                                BinOp bin_op) {
  extern __shared__ unsigned int smem[];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
    smem[b] = 0;
  __syncthreads();

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&smem[bin_op(in[i])], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
    if (smem[b] != 0)
      atomicAdd(&out[b], smem[b]);
}

template <int NBINS, typename BinOp, typename T>
__global__ void histogram_warp(const T *__restrict__ in,
                               unsigned int *__restrict__ out, int n,
                               BinOp bin_op) {
  extern __shared__ unsigned int smem[];
  const int warps = blockDim.x >> 5;
  for (int b = threadIdx.x; b < NBINS * warps; b += blockDim.x)
    smem[b] = 0;
  __syncthreads();

  unsigned int *my_hist = smem + (threadIdx.x >> 5) * NBINS;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&my_hist[bin_op(in[i])], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) {
    unsigned int total = 0;
    for (int w = 0; w < warps; ++w)
      total += smem[w * NBINS + b];
    if (total != 0)
      atomicAdd(&out[b], total);
  }
}

struct ByteBin {
  __host__ __device__ int operator()(unsigned char c) const { return c; }
};

struct HashBin64 {
  __host__ __device__ int operator()(uint32_t k) const {
    return (int)((k * 2654435761u) >> 26);
  }
};

static bool check_hist(const char *what, const std::vector<unsigned int> &got,
                       const std::vector<unsigned int> &want) {
  unsigned long long total = 0, weighted = 0;
  unsigned int most = 0;
  for (size_t b = 0; b < got.size(); ++b) {
    total += got[b];
    weighted += (unsigned long long)got[b] * (b + 1);
    if (got[b] > most)
      most = got[b];
  }
  printf("%s: %zu bins, total = %llu, weighted checksum = %llu, largest = "
         "%u\n",
         what, got.size(), total, weighted, most);
  for (size_t b = 0; b < got.size(); ++b)
    if (got[b] != want[b]) {
      printf("FAIL: %s bin %zu = %u, expected %u\n", what, b, got[b],
             want[b]);
      return false;
    }
  return true;
}

int main() {
  const int n = 1 << 18;
  const int threads = 192; // six warps
  const int blocks = 120;

  std::vector<unsigned char> h_bytes(n);
  std::vector<uint32_t> h_keys(n);
  // A skewed byte stream (runs and a hot value) and a key stream.
  for (int i = 0; i < n; ++i) {
    h_bytes[i] =
        (i % 5 == 0) ? 'e' : (unsigned char)((i * 131 + i / 64) & 0xff);
    h_keys[i] = (uint32_t)i * 40503u + (uint32_t)(i / 3);
  }
  std::vector<unsigned int> want_bytes(256, 0), want_keys(64, 0);
  for (int i = 0; i < n; ++i) {
    want_bytes[ByteBin()(h_bytes[i])]++;
    want_keys[HashBin64()(h_keys[i])]++;
  }

  unsigned char *d_bytes;
  uint32_t *d_keys;
  unsigned int *d_hist;
  cudaMalloc(&d_bytes, n);
  cudaMalloc(&d_keys, n * sizeof(uint32_t));
  cudaMalloc(&d_hist, 256 * sizeof(unsigned int));
  cudaMemcpy(d_bytes, h_bytes.data(), n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_keys, h_keys.data(), n * sizeof(uint32_t),
             cudaMemcpyHostToDevice);

  bool ok = true;
  std::vector<unsigned int> got(256);

  // Per-block privatization.
  cudaMemset(d_hist, 0, 256 * sizeof(unsigned int));
  histogram_block<256><<<blocks, threads, 256 * sizeof(unsigned int)>>>(
      d_bytes, d_hist, n, ByteBin());
  cudaMemcpy(got.data(), d_hist, 256 * sizeof(unsigned int),
             cudaMemcpyDeviceToHost);
  ok = check_hist("bytes/block", got, want_bytes) && ok;

  // Per-warp privatization.
  size_t warp_smem = (threads / 32) * 256 * sizeof(unsigned int);
  cudaMemset(d_hist, 0, 256 * sizeof(unsigned int));
  histogram_warp<256><<<blocks, threads, warp_smem>>>(d_bytes, d_hist, n,
                                                      ByteBin());
  cudaMemcpy(got.data(), d_hist, 256 * sizeof(unsigned int),
             cudaMemcpyDeviceToHost);
  ok = check_hist("bytes/warp", got, want_bytes) && ok;

  std::vector<unsigned int> got64(64);
  cudaMemset(d_hist, 0, 64 * sizeof(unsigned int));
  histogram_warp<64><<<blocks, threads,
                       (threads / 32) * 64 * sizeof(unsigned int)>>>(
      d_keys, d_hist, n, HashBin64());
  cudaMemcpy(got64.data(), d_hist, 64 * sizeof(unsigned int),
             cudaMemcpyDeviceToHost);
  ok = check_hist("keys/warp", got64, want_keys) && ok;

  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("FAIL: CUDA error %s\n", cudaGetErrorString(err));
    ok = false;
  }

  cudaFree(d_bytes);
  cudaFree(d_keys);
  cudaFree(d_hist);
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
