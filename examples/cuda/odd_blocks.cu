//===- examples/cuda/odd_blocks.cu - 96- and 48-thread blocks -------------===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Row sums with block sizes that are not multiples of 64, the way small
/// kernels in physics and sparse codes are tuned (96 threads = 3 warps;
/// 48 threads = a warp and a half), launched on the NULL stream with the
/// stream written as `NULL` in one launch and `0` in another, and the
/// shared memory sized at launch:
///  - row_sum_96: one row per block of 96 threads, a full-mask xor
///    butterfly from 16 in each of the 3 warps, warp totals in
///    `extern __shared__ float warp_sums[]` of `threads / 32` floats;
///  - row_sum_48: one row per block of 48 threads; the second warp has 16
///    lanes, so each warp computes its real lane count
///    `min(32, blockDim.x - (threadIdx.x & ~31))` and mask, shuffles down
///    under that mask and adds a neighbour's value only when the source
///    lane exists;
///  - copies with cudaMemcpyAsync(..., 0) and cudaStreamSynchronize(NULL);
///    errors are only looked at once, with cudaGetLastError at the end.
///
/// Warp-32 assumptions: warps of 32 define the partial warp (lanes 32..47)
/// and its mask `(1u << 16) - 1`, and `threads / 32` sizes the shared
/// array. Renamed only, for a 64-lane wavefront: the 32-bit masks do not
/// compile on ROCm 6.2 and later. With them widened, a 96-thread block is a
/// full wavefront and a 32-lane partial one, and a 48-thread block one
/// partial wavefront; the code's warps are halves of wavefronts. The
/// butterfly from 16 stays inside a half, so row_sum_96 stays right. In
/// row_sum_48 the second warp's lanes are lanes 32..47 of the wavefront, but
/// its mask `(1u << 16) - 1` names lanes 0..15: the callers' own bits are
/// not set, which is undefined; the mask has to move up by the warp's
/// offset in the wavefront, and ROCm further asks that it be the whole
/// converged set (ROCm/legacy-rocm-build issue 5241). No thread returns
/// before a barrier here; lc0 PR 2420 shows the GPU fault on AMD when
/// padding rows of a shared wavefront do.
///
/// The data are integers; every row sum is exact and compared exactly.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void row_sum_96(const float *in, float *out, int cols) {
  extern __shared__ float warp_sums[];
  const float *row = in + (size_t)blockIdx.x * cols;
  float v = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    v += row[c];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  if ((threadIdx.x & 31) == 0)
    warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int w = 0; w < (int)blockDim.x / 32; ++w)
      total += warp_sums[w];
    out[blockIdx.x] = total;
  }
}

/// The sum of \p v over the lanes of this (possibly partial) warp, in its
/// lane 0.
__device__ float partial_warp_sum(float v) {
  const int lane = threadIdx.x & 31;
  const int warp_base = threadIdx.x & ~31;
  const int nlanes = min(32, (int)blockDim.x - warp_base);
  const unsigned int mask =
      nlanes == 32 ? 0xffffffffu : ((1u << nlanes) - 1u);
  for (int offset = 16; offset > 0; offset >>= 1) {
    float other = __shfl_down_sync(mask, v, offset);
    if (lane + offset < nlanes)
      v += other;
  }
  return v;
}

__global__ void row_sum_48(const float *in, float *out, int cols) {
  extern __shared__ float warp_sums[];
  const float *row = in + (size_t)blockIdx.x * cols;
  float v = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    v += row[c];
  v = partial_warp_sum(v);
  if ((threadIdx.x & 31) == 0)
    warp_sums[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    const int warps = (blockDim.x + 31) / 32;
    float total = 0.0f;
    for (int w = 0; w < warps; ++w)
      total += warp_sums[w];
    out[blockIdx.x] = total;
  }
}

int main() {
  const int rows = 100, cols = 500;
  std::vector<float> h_in(rows * cols);
  std::vector<float> want(rows, 0.0f);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      h_in[r * cols + c] = (float)(((r * 3 + c * 5) % 13) - 4);
      want[r] += h_in[r * cols + c];
    }

  float *d_in, *d_out96, *d_out48;
  cudaMalloc((void **)&d_in, rows * cols * sizeof(float));
  cudaMalloc((void **)&d_out96, rows * sizeof(float));
  cudaMalloc((void **)&d_out48, rows * sizeof(float));
  cudaMemcpyAsync(d_in, h_in.data(), rows * cols * sizeof(float),
                  cudaMemcpyHostToDevice, 0);

  const int threads96 = 96, threads48 = 48;
  row_sum_96<<<rows, threads96, (threads96 / 32) * sizeof(float), NULL>>>(
      d_in, d_out96, cols);
  row_sum_48<<<rows, threads48, ((threads48 + 31) / 32) * sizeof(float),
               0>>>(d_in, d_out48, cols);

  std::vector<float> out96(rows), out48(rows);
  cudaMemcpyAsync(out96.data(), d_out96, rows * sizeof(float),
                  cudaMemcpyDeviceToHost, 0);
  cudaMemcpyAsync(out48.data(), d_out48, rows * sizeof(float),
                  cudaMemcpyDeviceToHost, NULL);
  cudaStreamSynchronize(NULL);

  bool ok = true;
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("FAIL: CUDA error %s\n", cudaGetErrorString(err));
    ok = false;
  }
  long long sum96 = 0, sum48 = 0, weighted = 0;
  for (int r = 0; r < rows; ++r) {
    sum96 += (long long)out96[r];
    sum48 += (long long)out48[r];
    weighted += (long long)out48[r] * (r + 1);
    if (ok && out96[r] != want[r]) {
      printf("FAIL: 96-thread row %d sum %.1f, expected %.1f\n", r, out96[r],
             want[r]);
      ok = false;
    }
    if (ok && out48[r] != want[r]) {
      printf("FAIL: 48-thread row %d sum %.1f, expected %.1f\n", r, out48[r],
             want[r]);
      ok = false;
    }
  }
  printf("row sums: %d rows x %d cols\n", rows, cols);
  printf("96 threads: total = %lld\n", sum96);
  printf("48 threads: total = %lld, weighted = %lld\n", sum48, weighted);

  cudaFree(d_in);
  cudaFree(d_out96);
  cudaFree(d_out48);
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
