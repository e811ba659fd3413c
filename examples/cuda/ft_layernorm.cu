//===- examples/cuda/ft_layernorm.cu - FasterTransformer blockReduceSum ---===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Layer normalization and RMS normalization over the rows of a matrix,
/// after NVIDIA FasterTransformer's warpReduceSum / blockReduceSum
/// (src/fastertransformer/kernels/reduce_kernel_utils.cuh) as it was copied
/// into vLLM (csrc/reduction_utils.cuh) and used by generalLayerNorm and
/// rms_norm_kernel:
///  - `#define FINAL_MASK 0xffffffff`; warpReduceSum is an xor butterfly
///    from 16 down to 1 with an explicit width of 32;
///  - blockReduceSum keeps one partial per warp in `static __shared__ T
///    shared[32]`, finds its slot with `lane = threadIdx.x & 0x1f` and
///    `wid = threadIdx.x >> 5`, and lets every warp reduce
///    `threadIdx.x < blockDim.x / 32.f ? shared[lane] : 0`, so that thread
///    0 holds the block's sum;
///  - the host picks the block like generalLayerNorm: min(cols, 1024), and
///    1024 when cols is not a multiple of 32 (so the block is always whole
///    warps); rms_norm takes min(hidden, 1024).
///
/// Warp-32 assumptions: the 32-bit FINAL_MASK, the butterfly start 16, the
/// `& 0x1f` / `>> 5` lane arithmetic and the 32 slots. Renamed only, for a
/// 64-lane wavefront, it does not compile: ROCm's *_sync shuffles
/// static_assert a 64-bit mask (ROCm/hip issue 3667). With the mask widened
/// and nothing else changed it is right, because the explicit width 32 keeps
/// each butterfly inside one half of the wavefront and `>> 5` still counts
/// 32-lane groups. The trap is the natural next edit: widening the butterfly
/// to warpSize / 2 = 32 (vLLM PR 3262 for ROCm) while keeping `& 0x1f` and
/// `>> 5` makes lanes 0 and 32 of a wavefront each store the whole
/// wavefront's sum, so block sums double; vLLM PR 3321 ("Fix warp and lane
/// calculation in blockReduceSum") derived lane and wid from the warp size.
///
/// Inputs are small integers, so every row sum and sum of squares is exact
/// and checked exactly (a doubled sum fails at once); normalized outputs are
/// checked against a double-precision host computation.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define FINAL_MASK 0xffffffff

template <typename T>
static void check(T result, const char *const func, const char *const file,
                  int const line) {
  if (result) {
    fprintf(stderr, "[FT][ERROR] CUDA runtime error: %s %s:%d (%s)\n",
            cudaGetErrorString(result), file, line, func);
    exit(EXIT_FAILURE);
  }
}
#define check_cuda_error(val) check((val), #val, __FILE__, __LINE__)

template <typename T> __inline__ __device__ T warpReduceSum(T val) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1)
    val += __shfl_xor_sync(FINAL_MASK, val, mask, 32);
  return val;
}

/// The sum over the block, valid in thread 0 (warp 0 holds it in all lanes).
template <typename T> __inline__ __device__ T blockReduceSum(T val) {
  static __shared__ T shared[32];
  int lane = threadIdx.x & 0x1f;
  int wid = threadIdx.x >> 5;

  val = warpReduceSum<T>(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();

  // blockDim.x / 32.f rather than >> 5 keeps a trailing partial warp.
  val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : (T)(0.0f);
  val = warpReduceSum<T>(val);
  return val;
}

/// One block per row. \p row_sums, when given, receives each row's sum.
template <typename T>
__global__ void generalLayerNorm(const T *__restrict__ input,
                                 const T *__restrict__ gamma,
                                 const T *__restrict__ beta, T *output,
                                 float *row_sums, int m, int n) {
  const int tid = threadIdx.x;
  __shared__ float s_mean;
  __shared__ float s_variance;
  float mean = 0.0f;
  float variance = 0.0f;

  float local_sum = 0.0f;
  for (int i = tid; i < n; i += blockDim.x)
    local_sum += (float)(input[blockIdx.x * n + i]);

  mean = blockReduceSum<float>(local_sum);
  if (threadIdx.x == 0) {
    s_mean = mean / n;
    if (row_sums != nullptr)
      row_sums[blockIdx.x] = mean;
  }
  __syncthreads();

  float local_var_sum = 0.0f;
  for (int i = tid; i < n; i += blockDim.x) {
    float diff = (float)(input[blockIdx.x * n + i]) - s_mean;
    local_var_sum += diff * diff;
  }
  variance = blockReduceSum<float>(local_var_sum);
  if (threadIdx.x == 0)
    s_variance = rsqrtf(variance / n + 1e-6f);
  __syncthreads();

  for (int i = tid; i < n; i += blockDim.x)
    output[blockIdx.x * n + i] =
        (T)((((float)input[blockIdx.x * n + i]) - s_mean) * s_variance *
                (float)(gamma[i]) +
            (float)(beta[i]));
}

/// vLLM's rms_norm_kernel shape: one block per token.
template <typename scalar_t>
__global__ void rms_norm_kernel(scalar_t *__restrict__ out,
                                const scalar_t *__restrict__ input,
                                const scalar_t *__restrict__ weight,
                                float *__restrict__ sq_sums,
                                const float epsilon, const int num_tokens,
                                const int hidden_size) {
  __shared__ float s_variance;
  float variance = 0.0f;

  for (int idx = threadIdx.x; idx < hidden_size; idx += blockDim.x) {
    const float x = (float)input[blockIdx.x * hidden_size + idx];
    variance += x * x;
  }
  variance = blockReduceSum<float>(variance);
  if (threadIdx.x == 0) {
    sq_sums[blockIdx.x] = variance;
    s_variance = rsqrtf(variance / hidden_size + epsilon);
  }
  __syncthreads();

  for (int idx = threadIdx.x; idx < hidden_size; idx += blockDim.x) {
    float x = (float)input[blockIdx.x * hidden_size + idx];
    out[blockIdx.x * hidden_size + idx] =
        ((scalar_t)(x * s_variance)) * weight[idx];
  }
}

static bool close_enough(double got, double want, double tol) {
  // NaN-safe: a NaN on either side fails.
  return fabs(got - want) <= tol * (1.0 + fabs(want));
}

int main() {
  bool ok = true;

  // ---- generalLayerNorm: m rows of n = 1000 (not a multiple of 32) ------
  const int m = 48, n = 1000;
  std::vector<float> h_in(m * n), h_gamma(n), h_beta(n);
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c)
      h_in[r * n + c] = (float)(((r * 37 + c * 11) % 31) - 12);
  for (int c = 0; c < n; ++c) {
    h_gamma[c] = 1.0f + 0.25f * (float)(c % 5);
    h_beta[c] = (float)(c % 3) - 1.0f;
  }

  float *d_in, *d_gamma, *d_beta, *d_out, *d_row_sums;
  check_cuda_error(cudaMalloc(&d_in, sizeof(float) * m * n));
  check_cuda_error(cudaMalloc(&d_gamma, sizeof(float) * n));
  check_cuda_error(cudaMalloc(&d_beta, sizeof(float) * n));
  check_cuda_error(cudaMalloc(&d_out, sizeof(float) * m * n));
  check_cuda_error(cudaMalloc(&d_row_sums, sizeof(float) * m));
  check_cuda_error(cudaMemcpy(d_in, h_in.data(), sizeof(float) * m * n,
                              cudaMemcpyHostToDevice));
  check_cuda_error(cudaMemcpy(d_gamma, h_gamma.data(), sizeof(float) * n,
                              cudaMemcpyHostToDevice));
  check_cuda_error(cudaMemcpy(d_beta, h_beta.data(), sizeof(float) * n,
                              cudaMemcpyHostToDevice));

  dim3 grid(m);
  dim3 block(std::min(n, 1024));
  if (n % 32 != 0)
    block.x = 1024;
  generalLayerNorm<float><<<grid, block>>>(d_in, d_gamma, d_beta, d_out,
                                           d_row_sums, m, n);
  check_cuda_error(cudaGetLastError());

  std::vector<float> h_out(m * n), h_row_sums(m);
  check_cuda_error(cudaMemcpy(h_out.data(), d_out, sizeof(float) * m * n,
                              cudaMemcpyDeviceToHost));
  check_cuda_error(cudaMemcpy(h_row_sums.data(), d_row_sums,
                              sizeof(float) * m, cudaMemcpyDeviceToHost));

  long long total = 0;
  for (int r = 0; r < m && ok; ++r) {
    long long s = 0;
    for (int c = 0; c < n; ++c)
      s += (long long)h_in[r * n + c];
    total += (long long)h_row_sums[r];
    if (h_row_sums[r] != (float)s) {
      printf("FAIL: layernorm row %d sum %.1f, expected %lld\n", r,
             h_row_sums[r], s);
      ok = false;
      break;
    }
    double mean = (double)s / n, var = 0.0;
    for (int c = 0; c < n; ++c)
      var += (h_in[r * n + c] - mean) * (h_in[r * n + c] - mean);
    double rstd = 1.0 / sqrt(var / n + 1e-6);
    for (int c = 0; c < n; ++c) {
      double want = (h_in[r * n + c] - mean) * rstd * h_gamma[c] + h_beta[c];
      if (!close_enough(h_out[r * n + c], want, 1e-4)) {
        printf("FAIL: layernorm out[%d][%d] = %f, expected %f\n", r, c,
               h_out[r * n + c], want);
        ok = false;
        break;
      }
    }
  }
  printf("layernorm: %d rows x %d cols\n", m, n);
  printf("layernorm: sum of row sums = %lld\n", total);

  // ---- rms_norm: tokens x hidden = 768 -------------------------------
  const int tokens = 40, hidden = 768;
  std::vector<float> h_x(tokens * hidden), h_w(hidden);
  for (int t = 0; t < tokens; ++t)
    for (int c = 0; c < hidden; ++c)
      h_x[t * hidden + c] = (float)(((t * 13 + c * 7) % 23) - 11);
  for (int c = 0; c < hidden; ++c)
    h_w[c] = 0.5f + 0.125f * (float)(c % 9);

  float *d_x, *d_w, *d_y, *d_sq;
  check_cuda_error(cudaMalloc(&d_x, sizeof(float) * tokens * hidden));
  check_cuda_error(cudaMalloc(&d_w, sizeof(float) * hidden));
  check_cuda_error(cudaMalloc(&d_y, sizeof(float) * tokens * hidden));
  check_cuda_error(cudaMalloc(&d_sq, sizeof(float) * tokens));
  check_cuda_error(cudaMemcpy(d_x, h_x.data(),
                              sizeof(float) * tokens * hidden,
                              cudaMemcpyHostToDevice));
  check_cuda_error(cudaMemcpy(d_w, h_w.data(), sizeof(float) * hidden,
                              cudaMemcpyHostToDevice));

  dim3 rgrid(tokens);
  dim3 rblock(std::min(hidden, 1024));
  rms_norm_kernel<float><<<rgrid, rblock>>>(d_y, d_x, d_w, d_sq, 1e-6f,
                                            tokens, hidden);
  check_cuda_error(cudaGetLastError());

  std::vector<float> h_y(tokens * hidden), h_sq(tokens);
  check_cuda_error(cudaMemcpy(h_y.data(), d_y,
                              sizeof(float) * tokens * hidden,
                              cudaMemcpyDeviceToHost));
  check_cuda_error(cudaMemcpy(h_sq.data(), d_sq, sizeof(float) * tokens,
                              cudaMemcpyDeviceToHost));

  long long sq_total = 0;
  for (int t = 0; t < tokens && ok; ++t) {
    long long sq = 0;
    for (int c = 0; c < hidden; ++c)
      sq += (long long)(h_x[t * hidden + c] * h_x[t * hidden + c]);
    sq_total += (long long)h_sq[t];
    if (h_sq[t] != (float)sq) {
      printf("FAIL: rms_norm token %d sum of squares %.1f, expected %lld\n",
             t, h_sq[t], sq);
      ok = false;
      break;
    }
    double scale = 1.0 / sqrt((double)sq / hidden + 1e-6);
    for (int c = 0; c < hidden; ++c) {
      double want = h_x[t * hidden + c] * scale * h_w[c];
      if (!close_enough(h_y[t * hidden + c], want, 1e-4)) {
        printf("FAIL: rms_norm out[%d][%d] = %f, expected %f\n", t, c,
               h_y[t * hidden + c], want);
        ok = false;
        break;
      }
    }
  }
  printf("rms_norm: %d tokens x %d hidden\n", tokens, hidden);
  printf("rms_norm: sum of squares = %lld\n", sq_total);

  cudaFree(d_in);
  cudaFree(d_gamma);
  cudaFree(d_beta);
  cudaFree(d_out);
  cudaFree(d_row_sums);
  cudaFree(d_x);
  cudaFree(d_w);
  cudaFree(d_y);
  cudaFree(d_sq);

  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
