//===- examples/cuda/half_rowstats.cu - fp16 inputs, float accumulation ---===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Row means and row maxima of a half-precision matrix, one warp per row,
/// in the style of the fp16 kernels of inference code (FasterTransformer,
/// TensorRT-LLM plugins, llama.cpp's f16 paths) built on cuda_fp16.h:
///  - rows are read as `__half2` pairs and widened with `__low2float` /
///    `__high2float`; sums accumulate in float and are reduced with
///    `__shfl_xor_sync(0xffffffff, ...)` from 16;
///  - the mean is narrowed back with `__float2half` (round to nearest);
///  - the maximum is kept in half: `__hmax` (sm_80 and later) and the
///    `__half` overload of `__shfl_xor_sync`;
///  - a second kernel scales every element, `__float2half(__half2float(x) *
///    s)`, with a grid-stride loop;
///  - the host builds the input with the host-side `__float2half` and
///    checks the means bit for bit against `__float2half` of the exact
///    float mean.
///
/// Warp-32 assumptions: the warp-per-row indexing (`threadIdx.x / 32`,
/// `% 32`, `blockDim.x / 32` rows per block) on both sides of the launch,
/// the 32-bit mask, and the butterfly start 16. Renamed only, for a 64-lane
/// wavefront: the mask does not compile on ROCm 6.2 and later; with it
/// widened, each 64-lane wavefront serves two rows (its halves), which is
/// right; a port that makes the kernel's 32 a warpSize but keeps the
/// host's `threads / 32` leaves half of the rows unprocessed. The
/// cuda_fp16 names used here (`__half2`, `__low2float`, `__hmax`,
/// `__float2half`) all exist in hip_fp16.h.
///
/// The values are multiples of 1/2 below 16 in magnitude, exact in half;
/// row sums are exact in float, so means and maxima are compared exactly.
///
//===----------------------------------------------------------------------===//

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,            \
              cudaGetErrorString(e_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/// One warp per row; cols is even.
__global__ void row_stats_half(const __half *__restrict__ in,
                               __half *__restrict__ means,
                               __half *__restrict__ maxes,
                               float *__restrict__ sums, int rows, int cols) {
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * (blockDim.x / 32) + warp;
  if (row >= rows)
    return; // whole warps leave together

  const __half2 *in2 =
      reinterpret_cast<const __half2 *>(in + (size_t)row * cols);
  float acc = 0.0f;
  __half mx = __float2half(-65504.0f);
  for (int c = lane; c < cols / 2; c += 32) {
    const __half2 h = in2[c];
    acc += __low2float(h) + __high2float(h);
    mx = __hmax(mx, __hmax(__low2half(h), __high2half(h)));
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    acc += __shfl_xor_sync(0xffffffff, acc, offset);
    mx = __hmax(mx, __shfl_xor_sync(0xffffffff, mx, offset));
  }
  if (lane == 0) {
    sums[row] = acc;
    means[row] = __float2half(acc / cols);
    maxes[row] = mx;
  }
}

__global__ void scale_half(__half *data, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    data[i] = __float2half(__half2float(data[i]) * s);
}

static unsigned short bits(__half h) {
  unsigned short u;
  memcpy(&u, &h, sizeof u);
  return u;
}

int main() {
  const int rows = 333, cols = 250;
  const int n = rows * cols;
  std::vector<__half> h_in(n);
  std::vector<float> h_f(n);
  for (int i = 0; i < n; ++i) {
    h_f[i] = 0.5f * (float)(((i * 7) % 31) - 12);
    h_in[i] = __float2half(h_f[i]);
  }

  __half *d_in, *d_means, *d_maxes;
  float *d_sums;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&d_means, rows * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&d_maxes, rows * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&d_sums, rows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(__half),
                        cudaMemcpyHostToDevice));

  const int threads = 128;
  const int rows_per_block = threads / 32;
  const int blocks = (rows + rows_per_block - 1) / rows_per_block;
  row_stats_half<<<blocks, threads>>>(d_in, d_means, d_maxes, d_sums, rows,
                                      cols);
  CUDA_CHECK(cudaGetLastError());
  scale_half<<<64, 256>>>(d_in, 0.25f, n);
  CUDA_CHECK(cudaGetLastError());

  std::vector<__half> means(rows), maxes(rows), scaled(n);
  std::vector<float> sums(rows);
  CUDA_CHECK(cudaMemcpy(means.data(), d_means, rows * sizeof(__half),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(maxes.data(), d_maxes, rows * sizeof(__half),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, rows * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(scaled.data(), d_in, n * sizeof(__half),
                        cudaMemcpyDeviceToHost));

  bool ok = true;
  double sum_total = 0.0;
  long long mean_bits = 0;
  double max_total = 0.0;
  for (int r = 0; r < rows && ok; ++r) {
    float s = 0.0f, mx = -65504.0f;
    for (int c = 0; c < cols; ++c) {
      s += h_f[r * cols + c]; // exact: multiples of 1/2, small
      mx = h_f[r * cols + c] > mx ? h_f[r * cols + c] : mx;
    }
    const __half want_mean = __float2half(s / cols);
    if (sums[r] != s) {
      printf("FAIL: row %d sum %g, expected %g\n", r, sums[r], s);
      ok = false;
    } else if (bits(means[r]) != bits(want_mean)) {
      printf("FAIL: row %d mean 0x%04x, expected 0x%04x\n", r,
             bits(means[r]), bits(want_mean));
      ok = false;
    } else if (__half2float(maxes[r]) != mx) {
      printf("FAIL: row %d max %g, expected %g\n", r,
             __half2float(maxes[r]), mx);
      ok = false;
    }
    sum_total += sums[r];
    mean_bits += bits(means[r]);
    max_total += __half2float(maxes[r]);
  }
  for (int i = 0; i < n && ok; ++i) {
    // x * 0.25 is exact for these values, in float and in half.
    if (__half2float(scaled[i]) != h_f[i] * 0.25f) {
      printf("FAIL: scaled[%d] = %g, expected %g\n", i,
             __half2float(scaled[i]), h_f[i] * 0.25f);
      ok = false;
    }
  }
  printf("half rows: %d x %d\n", rows, cols);
  printf("sum of row sums = %.1f, mean bits checksum = %lld\n", sum_total,
         mean_bits);
  printf("sum of row maxima = %.1f\n", max_total);

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_means));
  CUDA_CHECK(cudaFree(d_maxes));
  CUDA_CHECK(cudaFree(d_sums));
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
