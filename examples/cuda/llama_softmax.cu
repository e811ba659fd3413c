//===- examples/cuda/llama_softmax.cu - llama.cpp warp_reduce_sum/max -----===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Row softmax and RMS norm in the style of llama.cpp's CUDA backend
/// (ggml-cuda.cu of 2023, later split into ggml-cuda/common.cuh,
/// softmax.cu and norm.cu):
///  - `#define WARP_SIZE 32`; warp_reduce_sum and warp_reduce_max are xor
///    butterflies from WARP_SIZE/2 with `__shfl_xor_sync(0xffffffff, x,
///    mask, 32)`;
///  - soft_max_f32 runs one warp per row with the lanes along y:
///    `block_dims(1, WARP_SIZE, 1)`, `tid = threadIdx.y`, one block per row;
///  - rms_norm_f32<block_size> runs one block per row, WARP_SIZE threads
///    when ncols < 1024 and 1024 threads otherwise; above one warp it goes
///    through `__shared__ float s_sum[32]` and every lane reads
///    `s_sum[lane_id]` (1024 / 32 = 32, so all 32 slots are written).
///
/// Warp-32 assumptions: WARP_SIZE 32 in the host launch shapes (a 32-thread
/// block is one warp), the 32-bit mask, and s_sum[32] being exactly one
/// slot per warp of a 1024-thread block. Renamed only, for a 64-lane
/// wavefront: the 32-bit mask does not compile on ROCm 6.2 and later; with
/// it widened, a 32-thread block is half a wavefront and the width-32
/// shuffles still work, but the natural port `#define WARP_SIZE 64` breaks
/// rms_norm: 1024 threads are 16 wavefronts, lanes 16..63 read s_sum slots
/// that no wavefront wrote (32..63 past the array). llama.cpp issue 3630
/// ("WARP_SIZE as 64 for MI GPUs?") reports garbage output after that
/// change, and a reply points at the hard-coded 32s in rms_norm_f32.
///
/// Inputs are multiples of 1/4 with one planted maximum per softmax row; the
/// check compares with a double-precision host softmax and RMS norm, and the
/// printed lines are the argmax checksum and counts, which are exact.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define WARP_SIZE 32

#define CUDA_CHECK(err)                                                        \
  do {                                                                         \
    cudaError_t err_ = (err);                                                  \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "CUDA error %d at %s:%d: %s\n", err_, __FILE__,          \
              __LINE__, cudaGetErrorString(err_));                             \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static __device__ __forceinline__ float warp_reduce_sum(float x) {
#pragma unroll
  for (int mask = WARP_SIZE / 2; mask > 0; mask >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, mask, 32);
  return x;
}

static __device__ __forceinline__ float warp_reduce_max(float x) {
#pragma unroll
  for (int mask = WARP_SIZE / 2; mask > 0; mask >>= 1)
    x = fmaxf(x, __shfl_xor_sync(0xffffffff, x, mask, 32));
  return x;
}

// One warp per row; the warp's lanes are threadIdx.y.
static __global__ void soft_max_f32(const float *x, float *dst,
                                    const int ncols, const float scale) {
  const int row = blockDim.x * blockIdx.x + threadIdx.x;
  const int block_size = blockDim.y;
  const int tid = threadIdx.y;

  float max_val = -INFINITY;
  for (int col = tid; col < ncols; col += block_size) {
    const int i = row * ncols + col;
    max_val = fmaxf(max_val, x[i] * scale);
  }
  max_val = warp_reduce_max(max_val);

  float tmp = 0.0f;
  for (int col = tid; col < ncols; col += block_size) {
    const int i = row * ncols + col;
    const float val = expf(x[i] * scale - max_val);
    tmp += val;
    dst[i] = val;
  }
  tmp = warp_reduce_sum(tmp);

  const float inv_tmp = 1.0f / tmp;
  for (int col = tid; col < ncols; col += block_size) {
    const int i = row * ncols + col;
    dst[i] *= inv_tmp;
  }
}

template <int block_size>
static __global__ void rms_norm_f32(const float *x, float *dst,
                                    const int ncols, const float eps) {
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  const int tid = threadIdx.x;

  float tmp = 0.0f;
  for (int col = tid; col < ncols; col += block_size) {
    const float xi = x[row * ncols + col];
    tmp += xi * xi;
  }

  tmp = warp_reduce_sum(tmp);
  if (block_size > WARP_SIZE) {
    __shared__ float s_sum[32];
    const int warp_id = threadIdx.x / WARP_SIZE;
    const int lane_id = threadIdx.x % WARP_SIZE;
    if (lane_id == 0)
      s_sum[warp_id] = tmp;
    __syncthreads();
    tmp = s_sum[lane_id];
    tmp = warp_reduce_sum(tmp);
  }

  const float mean = tmp / ncols;
  const float scale = rsqrtf(mean + eps);
  for (int col = tid; col < ncols; col += block_size)
    dst[row * ncols + col] = scale * x[row * ncols + col];
}

static void soft_max_f32_cuda(const float *x, float *dst, const int ncols,
                              const int nrows, const float scale,
                              cudaStream_t stream) {
  const dim3 block_dims(1, WARP_SIZE, 1);
  const dim3 block_nums(nrows, 1, 1);
  soft_max_f32<<<block_nums, block_dims, 0, stream>>>(x, dst, ncols, scale);
}

static void rms_norm_f32_cuda(const float *x, float *dst, const int ncols,
                              const int nrows, const float eps,
                              cudaStream_t stream) {
  if (ncols < 1024) {
    const dim3 block_dims(WARP_SIZE, 1, 1);
    rms_norm_f32<WARP_SIZE>
        <<<nrows, block_dims, 0, stream>>>(x, dst, ncols, eps);
  } else {
    const dim3 block_dims(1024, 1, 1);
    rms_norm_f32<1024><<<nrows, block_dims, 0, stream>>>(x, dst, ncols, eps);
  }
}

static bool check_rms(const std::vector<float> &x, const std::vector<float> &y,
                      int nrows, int ncols, float eps, const char *what) {
  for (int r = 0; r < nrows; ++r) {
    double ss = 0.0;
    for (int c = 0; c < ncols; ++c)
      ss += (double)x[r * ncols + c] * x[r * ncols + c];
    double scale = 1.0 / sqrt(ss / ncols + eps);
    for (int c = 0; c < ncols; ++c) {
      double want = scale * x[r * ncols + c];
      double got = y[r * ncols + c];
      if (!(fabs(got - want) <= 1e-5 + 1e-4 * fabs(want))) {
        printf("FAIL: %s row %d col %d: %f, expected %f\n", what, r, c, got,
               want);
        return false;
      }
    }
  }
  return true;
}

int main() {
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  bool ok = true;

  // ---- softmax: 240 rows of 200 columns, scale 0.5 -------------------
  const int nrows = 240, ncols = 200;
  const float scale = 0.5f;
  std::vector<float> h_x(nrows * ncols);
  for (int r = 0; r < nrows; ++r) {
    for (int c = 0; c < ncols; ++c)
      h_x[r * ncols + c] = 0.25f * (float)((r * 17 + c * 5) % 41) - 5.0f;
    h_x[r * ncols + (r * 7) % ncols] = 20.0f; // the row's unique maximum
  }
  float *d_x, *d_y;
  CUDA_CHECK(cudaMalloc(&d_x, sizeof(float) * nrows * ncols));
  CUDA_CHECK(cudaMalloc(&d_y, sizeof(float) * nrows * ncols));
  CUDA_CHECK(cudaMemcpyAsync(d_x, h_x.data(), sizeof(float) * nrows * ncols,
                             cudaMemcpyHostToDevice, stream));
  soft_max_f32_cuda(d_x, d_y, ncols, nrows, scale, stream);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> h_y(nrows * ncols);
  CUDA_CHECK(cudaMemcpyAsync(h_y.data(), d_y, sizeof(float) * nrows * ncols,
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));

  long long argmax_sum = 0;
  int rows_normalized = 0;
  for (int r = 0; r < nrows && ok; ++r) {
    double mx = -INFINITY;
    for (int c = 0; c < ncols; ++c)
      mx = fmax(mx, (double)h_x[r * ncols + c] * scale);
    double sum = 0.0;
    for (int c = 0; c < ncols; ++c)
      sum += exp((double)h_x[r * ncols + c] * scale - mx);
    int best = 0;
    double got_sum = 0.0;
    for (int c = 0; c < ncols; ++c) {
      double want = exp((double)h_x[r * ncols + c] * scale - mx) / sum;
      double got = h_y[r * ncols + c];
      if (!(fabs(got - want) <= 1e-6 + 1e-4 * want)) {
        printf("FAIL: softmax row %d col %d: %g, expected %g\n", r, c, got,
               want);
        ok = false;
        break;
      }
      if (h_y[r * ncols + c] > h_y[r * ncols + best])
        best = c;
      got_sum += got;
    }
    argmax_sum += best;
    if (fabs(got_sum - 1.0) <= 1e-4)
      ++rows_normalized;
  }
  printf("soft_max: %d rows x %d cols\n", nrows, ncols);
  printf("soft_max: argmax checksum = %lld\n", argmax_sum);
  printf("soft_max: rows summing to 1 = %d\n", rows_normalized);
  if (ok && rows_normalized != nrows) {
    printf("FAIL: %d rows do not sum to 1\n", nrows - rows_normalized);
    ok = false;
  }

  // ---- rms_norm: a 32-thread launch (256 cols) and a 1024-thread one ---
  const float eps = 1e-6f;
  const int rows_a = 24, cols_a = 256;
  const int rows_b = 16, cols_b = 2048;
  std::vector<float> h_a(rows_a * cols_a), h_b(rows_b * cols_b);
  for (int i = 0; i < rows_a * cols_a; ++i)
    h_a[i] = 0.25f * (float)((i * 7) % 29) - 3.5f;
  for (int i = 0; i < rows_b * cols_b; ++i)
    h_b[i] = 0.25f * (float)((i * 11) % 37) - 4.5f;
  float *d_a, *d_ao, *d_b, *d_bo;
  CUDA_CHECK(cudaMalloc(&d_a, sizeof(float) * rows_a * cols_a));
  CUDA_CHECK(cudaMalloc(&d_ao, sizeof(float) * rows_a * cols_a));
  CUDA_CHECK(cudaMalloc(&d_b, sizeof(float) * rows_b * cols_b));
  CUDA_CHECK(cudaMalloc(&d_bo, sizeof(float) * rows_b * cols_b));
  CUDA_CHECK(cudaMemcpyAsync(d_a, h_a.data(), sizeof(float) * rows_a * cols_a,
                             cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(d_b, h_b.data(), sizeof(float) * rows_b * cols_b,
                             cudaMemcpyHostToDevice, stream));
  rms_norm_f32_cuda(d_a, d_ao, cols_a, rows_a, eps, stream);
  CUDA_CHECK(cudaGetLastError());
  rms_norm_f32_cuda(d_b, d_bo, cols_b, rows_b, eps, stream);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> h_ao(rows_a * cols_a), h_bo(rows_b * cols_b);
  CUDA_CHECK(cudaMemcpyAsync(h_ao.data(), d_ao,
                             sizeof(float) * rows_a * cols_a,
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaMemcpyAsync(h_bo.data(), d_bo,
                             sizeof(float) * rows_b * cols_b,
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));

  if (ok)
    ok = check_rms(h_a, h_ao, rows_a, cols_a, eps, "rms_norm<32>");
  if (ok)
    ok = check_rms(h_b, h_bo, rows_b, cols_b, eps, "rms_norm<1024>");
  printf("rms_norm: %d x %d and %d x %d\n", rows_a, cols_a, rows_b, cols_b);

  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_ao));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_bo));
  CUDA_CHECK(cudaStreamDestroy(stream));

  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
