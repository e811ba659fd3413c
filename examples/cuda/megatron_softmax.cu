//===- examples/cuda/megatron_softmax.cu - Megatron/Apex masked softmax ---===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The fused scale + mask + softmax of attention scores, in the style of
/// NVIDIA Megatron-LM / Apex (csrc/megatron/scaled_masked_softmax.h:
/// scaled_masked_softmax_warp_forward and its dispatcher):
///  - `template <typename input_t, typename output_t, typename acc_t, int
///    log2_elements>`; inside, `WARP_SIZE` is a constexpr: the next power
///    of two of the row length, capped at C10_WARP_SIZE (32), so rows of 16
///    or fewer use sub-warps; WARP_ITERATIONS elements per lane and
///    WARP_BATCH = 2 rows per warp when the row is at most 128 long;
///  - `warp_reduce<acc_t, WARP_BATCH, WARP_SIZE, Max/Add>` over
///    `WARP_SHFL_XOR_NATIVE(v, offset, WARP_SIZE)`, a wrapper of
///    `__shfl_xor_sync(0xffffffff, ...)` with the width explicit;
///  - blocks of (WARP_SIZE, 128 / WARP_SIZE) threads, a grid of (query
///    blocks, heads, batches), the mask broadcast over heads (pad_batches),
///    masked scores set to -10000;
///  - the host mirrors the constexprs: `warp_size = min(next_power_of_two,
///    C10_WARP_SIZE)`, `warps_per_block = threads_per_block / warp_size`,
///    and a switch over log2_elements.
///
/// Warp-32 assumptions: C10_WARP_SIZE 32 both in the kernel's constexpr and
/// in the host's launch shape, which must agree (rows per block = warps per
/// block * WARP_BATCH). Renamed only, for a 64-lane wavefront: the 32-bit
/// mask does not compile on ROCm 6.2 and later; if C10_WARP_SIZE becomes 64
/// on the device but stays 32 (or a different 64) on the host, the kernel
/// and the launch disagree on rows per block and rows are skipped or done
/// twice. ROCm's Apex fork replaced every host-side use of C10_WARP_SIZE in
/// these files with the runtime `at::cuda::warp_size()` (ROCm/apex PR 256:
/// scaled_masked_softmax.h among nine extensions) after the fused-softmax
/// tests failed (ROCm/apex PR 228).
///
/// Three shapes: rows of 80 (warp 32, two rows per warp), of 12 (16-lane
/// sub-warps, two per hardware warp) and of 300 (ten elements per lane).
/// Outputs are checked against a double-precision host softmax; the
/// printed counts (exact zeros where masked, rows summing to one) are
/// exact.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define C10_WARP_SIZE 32

#define C10_CUDA_KERNEL_LAUNCH_CHECK()                                         \
  do {                                                                         \
    cudaError_t e = cudaGetLastError();                                        \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "CUDA kernel launch error: %s (%s:%d)\n",                \
              cudaGetErrorString(e), __FILE__, __LINE__);                      \
      abort();                                                                 \
    }                                                                          \
  } while (0)

template <typename T>
__device__ __forceinline__ T
WARP_SHFL_XOR_NATIVE(T value, int laneMask, int width = warpSize,
                     unsigned int mask = 0xffffffff) {
  return __shfl_xor_sync(mask, value, laneMask, width);
}

template <typename T> struct Add {
  __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};

template <typename T> struct Max {
  __device__ __forceinline__ T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};

template <typename acc_t, int WARP_BATCH, int WARP_SIZE,
          template <typename> class ReduceOp>
__device__ __forceinline__ void warp_reduce(acc_t *sum) {
  ReduceOp<acc_t> r;
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) {
#pragma unroll
    for (int i = 0; i < WARP_BATCH; ++i) {
      acc_t b = WARP_SHFL_XOR_NATIVE(sum[i], offset, WARP_SIZE);
      sum[i] = r(sum[i], b);
    }
  }
}

/// dst = softmax(scale * src, masked), a row of element_count per batch
/// index; the mask has pad_batches [query, key] slices.
template <typename input_t, typename output_t, typename acc_t,
          int log2_elements>
__global__ void scaled_masked_softmax_warp_forward(
    output_t *dst, const input_t *src, const uint8_t *mask, const acc_t scale,
    int micro_batch_size, int element_count, int pad_batches) {
  constexpr int next_power_of_two = 1 << log2_elements;
  constexpr int WARP_SIZE = (next_power_of_two < C10_WARP_SIZE)
                                ? next_power_of_two
                                : C10_WARP_SIZE;
  constexpr int WARP_ITERATIONS = next_power_of_two / WARP_SIZE;
  constexpr int WARP_BATCH = (next_power_of_two <= 128) ? 2 : 1;

  // blockDim (WARP_SIZE, warps per block); grid (query blocks, heads, batch)
  int first_batch =
      (blockDim.y *
           (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)) +
       threadIdx.y) *
      WARP_BATCH;
  int pad_first_batch = 0;
  if (pad_batches != 1) // one mask slice per batch: skip over the heads
    pad_first_batch =
        (blockDim.y * (blockIdx.x + gridDim.x * blockIdx.z) + threadIdx.y) *
        WARP_BATCH;
  else // a single mask slice for everybody
    pad_first_batch = (blockDim.y * blockIdx.x + threadIdx.y) * WARP_BATCH;

  int local_batches = micro_batch_size - first_batch;
  if (local_batches > WARP_BATCH)
    local_batches = WARP_BATCH;

  int local_idx = threadIdx.x;
  src += first_batch * element_count + local_idx;
  dst += first_batch * element_count + local_idx;
  mask += pad_first_batch * element_count + local_idx;

  acc_t elements[WARP_BATCH][WARP_ITERATIONS];
#pragma unroll
  for (int i = 0; i < WARP_BATCH; ++i) {
    int batch_element_count = (i >= local_batches) ? 0 : element_count;
#pragma unroll
    for (int it = 0; it < WARP_ITERATIONS; ++it) {
      int element_index = local_idx + it * WARP_SIZE;
      if (element_index < batch_element_count) {
        int itr_idx = i * element_count + it * WARP_SIZE;
        if (mask[itr_idx] != 1)
          elements[i][it] = (acc_t)src[itr_idx] * scale;
        else
          elements[i][it] = -10000.0;
      } else {
        elements[i][it] = -INFINITY;
      }
    }
  }

  acc_t max_value[WARP_BATCH];
#pragma unroll
  for (int i = 0; i < WARP_BATCH; ++i) {
    max_value[i] = elements[i][0];
#pragma unroll
    for (int it = 1; it < WARP_ITERATIONS; ++it)
      max_value[i] =
          (max_value[i] > elements[i][it]) ? max_value[i] : elements[i][it];
  }
  warp_reduce<acc_t, WARP_BATCH, WARP_SIZE, Max>(max_value);

  acc_t sum[WARP_BATCH]{0.0f};
#pragma unroll
  for (int i = 0; i < WARP_BATCH; ++i) {
#pragma unroll
    for (int it = 0; it < WARP_ITERATIONS; ++it) {
      elements[i][it] = std::exp((elements[i][it] - max_value[i]));
      sum[i] += elements[i][it];
    }
  }
  warp_reduce<acc_t, WARP_BATCH, WARP_SIZE, Add>(sum);

#pragma unroll
  for (int i = 0; i < WARP_BATCH; ++i) {
    if (i >= local_batches)
      break;
#pragma unroll
    for (int it = 0; it < WARP_ITERATIONS; ++it) {
      int element_index = local_idx + it * WARP_SIZE;
      if (element_index < element_count)
        dst[i * element_count + it * WARP_SIZE] =
            (output_t)(elements[i][it] / sum[i]);
    }
  }
}

static int log2_ceil(int value) {
  int log2_value = 0;
  while ((1 << log2_value) < value)
    ++log2_value;
  return log2_value;
}

#define LAUNCH_CASE(L)                                                         \
  case L:                                                                      \
    scaled_masked_softmax_warp_forward<input_t, output_t, acc_t, L>            \
        <<<blocks, threads, 0, 0>>>(dst, src, mask, scale, batch_count,        \
                                    key_seq_len, pad_batches);                 \
    break;

template <typename input_t, typename output_t, typename acc_t>
void dispatch_scaled_masked_softmax_forward(output_t *dst, const input_t *src,
                                            const uint8_t *mask,
                                            const input_t scale,
                                            int query_seq_len, int key_seq_len,
                                            int batches, int attn_heads,
                                            int pad_batches) {
  assert(key_seq_len >= 0 && key_seq_len <= 2048);
  if (key_seq_len == 0)
    return;
  int log2_elements = log2_ceil(key_seq_len);
  const int next_power_of_two = 1 << log2_elements;
  int batch_count = batches * attn_heads * query_seq_len;

  // This value must match WARP_SIZE constexpr in the kernel.
  int warp_size = (next_power_of_two < C10_WARP_SIZE) ? next_power_of_two
                                                      : C10_WARP_SIZE;
  // This value must match WARP_BATCH constexpr in the kernel.
  int batches_per_warp = (next_power_of_two <= 128) ? 2 : 1;

  constexpr int threads_per_block = 128;
  int warps_per_block = (threads_per_block / warp_size);
  int batches_per_block = warps_per_block * batches_per_warp;
  assert(query_seq_len % batches_per_block == 0);
  dim3 blocks(query_seq_len / batches_per_block, attn_heads, batches);
  dim3 threads(warp_size, warps_per_block, 1);

  switch (log2_elements) {
    LAUNCH_CASE(0)
    LAUNCH_CASE(1)
    LAUNCH_CASE(2)
    LAUNCH_CASE(3)
    LAUNCH_CASE(4)
    LAUNCH_CASE(5)
    LAUNCH_CASE(6)
    LAUNCH_CASE(7)
    LAUNCH_CASE(8)
    LAUNCH_CASE(9)
    LAUNCH_CASE(10)
    LAUNCH_CASE(11)
  default:
    break;
  }
}

struct Config {
  const char *name;
  int batches, heads, query_len, key_len;
  bool mask_per_batch;
};

static bool run(const Config &cfg) {
  const int B = cfg.batches, H = cfg.heads, Q = cfg.query_len,
            K = cfg.key_len;
  const int pad_batches = cfg.mask_per_batch ? B : 1;
  const float scale = 0.125f;
  const size_t n = (size_t)B * H * Q * K;

  std::vector<float> h_src(n);
  std::vector<uint8_t> h_mask((size_t)pad_batches * Q * K);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h)
      for (int q = 0; q < Q; ++q)
        for (int k = 0; k < K; ++k)
          h_src[(((size_t)b * H + h) * Q + q) * K + k] =
              0.5f * (float)(((b * 7 + h * 3 + q * 5 + k * 11) % 23) - 11);
  for (int pb = 0; pb < pad_batches; ++pb)
    for (int q = 0; q < Q; ++q)
      for (int k = 0; k < K; ++k)
        h_mask[((size_t)pb * Q + q) * K + k] = (k > q + 3 + pb) ? 1 : 0;

  float *d_src, *d_dst;
  uint8_t *d_mask;
  cudaMalloc(&d_src, n * sizeof(float));
  cudaMalloc(&d_dst, n * sizeof(float));
  cudaMalloc(&d_mask, h_mask.size());
  cudaMemcpy(d_src, h_src.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_mask, h_mask.data(), h_mask.size(), cudaMemcpyHostToDevice);
  cudaMemset(d_dst, 0xff, n * sizeof(float)); // NaN until written

  dispatch_scaled_masked_softmax_forward<float, float, float>(
      d_dst, d_src, d_mask, scale, Q, K, B, H, pad_batches);
  C10_CUDA_KERNEL_LAUNCH_CHECK();

  std::vector<float> h_dst(n);
  cudaMemcpy(h_dst.data(), d_dst, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
  cudaFree(d_mask);

  bool ok = true;
  long long zeros = 0, masked = 0;
  int rows_normalized = 0;
  for (int b = 0; b < B && ok; ++b)
    for (int h = 0; h < H && ok; ++h)
      for (int q = 0; q < Q && ok; ++q) {
        const size_t row = (((size_t)b * H + h) * Q + q) * K;
        const uint8_t *m =
            &h_mask[((size_t)(cfg.mask_per_batch ? b : 0) * Q + q) * K];
        std::vector<double> v(K);
        double mx = -INFINITY, sum = 0.0, got_sum = 0.0;
        for (int k = 0; k < K; ++k) {
          v[k] = m[k] ? -10000.0 : (double)(h_src[row + k] * scale);
          mx = fmax(mx, v[k]);
        }
        for (int k = 0; k < K; ++k)
          sum += exp(v[k] - mx);
        for (int k = 0; k < K; ++k) {
          double want = exp(v[k] - mx) / sum;
          double got = h_dst[row + k];
          if (!(fabs(got - want) <= 1e-6 + 1e-4 * want)) {
            printf("FAIL: %s: b %d h %d q %d k %d: %g, expected %g\n",
                   cfg.name, b, h, q, k, got, want);
            ok = false;
            break;
          }
          got_sum += got;
          zeros += (h_dst[row + k] == 0.0f);
          masked += m[k];
        }
        if (fabs(got_sum - 1.0) <= 1e-5)
          ++rows_normalized;
      }
  if (ok && zeros != masked) {
    printf("FAIL: %s: %lld exact zeros, %lld masked\n", cfg.name, zeros,
           masked);
    ok = false;
  }
  printf("%s: %d rows of %d, masked zeros = %lld, rows summing to 1 = %d\n",
         cfg.name, B * H * Q, K, zeros, rows_normalized);
  if (ok && rows_normalized != B * H * Q) {
    printf("FAIL: %s: %d rows do not sum to 1\n", cfg.name,
           B * H * Q - rows_normalized);
    ok = false;
  }
  return ok;
}

int main() {
  const Config configs[] = {
      {"k80", 2, 4, 64, 80, true},
      {"k12", 3, 2, 32, 12, false},
      {"k300", 1, 3, 16, 300, false},
  };
  bool ok = true;
  for (const Config &cfg : configs)
    ok = run(cfg) && ok;
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
