//===- examples/cuda/aten_block_reduce.cu - PyTorch ATen BlockReduce ------===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Per-row sum, maximum and Welford mean/variance through a block reduction
/// templated on the reduction op, in the style of PyTorch ATen
/// (ATen/cuda/DeviceUtils.cuh, ATen/native/cuda/block_reduce.cuh,
/// ATen/native/SharedReduceOps.h):
///  - `WARP_SHFL_DOWN(value, delta, width = warpSize, mask = 0xffffffff)`,
///    a function template that wraps `__shfl_down_sync` with defaults;
///  - an op object with `combine` and `warp_shfl_down` members (a sum, a
///    NaN-propagating max, and Welford's mean/M2/count triple, shuffled
///    member by member);
///  - WarpReduce from `C10_WARP_SIZE >> 1` down, and BlockReduce with
///    `lid = tid % C10_WARP_SIZE`, `wid = tid / C10_WARP_SIZE`, one slot per
///    warp in a `__shared__` array of C10_WARP_SIZE (the typed ones through
///    std::aligned_storage), and `tid < blockDim.x / C10_WARP_SIZE ?
///    shared[lid] : identity` for the second round;
///  - kCUDABlockReduceNumThreads = 512 threads, and the host-side limit
///    `C10_WARP_SIZE * C10_WARP_SIZE` on the block size.
///
/// Warp-32 assumptions: C10_WARP_SIZE is a compile-time 32 used on the
/// host (the thread limit) and on the device, and the mask default is 32
/// bits while the width default is warpSize. Renamed only, for a 64-lane
/// wavefront: the 32-bit default mask does not compile on ROCm 6.2 and
/// later. With the mask widened and C10_WARP_SIZE left at 32 it is right:
/// the width defaults to warpSize (64) but offsets below 32 never cross a
/// 32-lane half, and `tid / 32` still counts 32-lane groups. The ROCm
/// hazard that bit PyTorch was the constant itself: ROCm builds defined
/// C10_WARP_SIZE as warpSize, one compile-time value; on an RDNA 3.5 part,
/// whose wavefront is 32, it came out 64 and softmax sums came out near 0.5
/// (pytorch/pytorch issue 186229); the host-side value became a runtime
/// query (ROCm/pytorch PR 2328, pytorch/pytorch PR 158271).
///
/// Inputs are small integers: sums and maxima are exact and printed;
/// Welford means and variances are checked with a tolerance.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#define C10_WARP_SIZE 32

#define C10_CUDA_CHECK(EXPR)                                                   \
  do {                                                                         \
    const cudaError_t __err = EXPR;                                            \
    if (__err != cudaSuccess) {                                                \
      fprintf(stderr, "CUDA error: %s (%s at %s:%d)\n",                        \
              cudaGetErrorString(__err), #EXPR, __FILE__, __LINE__);           \
      std::abort();                                                            \
    }                                                                          \
  } while (0)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())

template <typename T>
__device__ __forceinline__ T WARP_SHFL_DOWN(T value, unsigned int delta,
                                            int width = warpSize,
                                            unsigned int mask = 0xffffffff) {
  return __shfl_down_sync(mask, value, delta, width);
}

namespace at {
namespace native {

template <typename acc_t> struct SumOps {
  __device__ acc_t combine(acc_t a, acc_t b) const { return a + b; }
  __device__ acc_t warp_shfl_down(acc_t data, int offset) const {
    return WARP_SHFL_DOWN(data, offset);
  }
};

template <typename acc_t> struct MaxOps {
  __device__ acc_t combine(acc_t a, acc_t b) const {
    // NaN-propagating, like at::_isnan-based max_propagate_nan.
    return (a != a || a > b) ? a : b;
  }
  __device__ acc_t warp_shfl_down(acc_t data, int offset) const {
    return WARP_SHFL_DOWN(data, offset);
  }
};

struct WelfordData {
  float mean;
  float m2;
  float nf;
};

struct WelfordOps {
  __device__ WelfordData reduce(WelfordData acc, float x) const {
    float nf = acc.nf + 1.0f;
    float delta = x - acc.mean;
    float mean = acc.mean + delta / nf;
    return {mean, acc.m2 + delta * (x - mean), nf};
  }
  __device__ WelfordData combine(WelfordData a, WelfordData b) const {
    if (a.nf == 0.0f)
      return b;
    if (b.nf == 0.0f)
      return a;
    float delta = b.mean - a.mean;
    float n = a.nf + b.nf;
    float nb_over_n = b.nf / n;
    return {a.mean + delta * nb_over_n,
            a.m2 + b.m2 + delta * delta * a.nf * nb_over_n, n};
  }
  __device__ WelfordData warp_shfl_down(WelfordData acc, int offset) const {
    return {WARP_SHFL_DOWN(acc.mean, offset), WARP_SHFL_DOWN(acc.m2, offset),
            WARP_SHFL_DOWN(acc.nf, offset)};
  }
};

namespace cuda_utils {

constexpr int kCUDABlockReduceNumThreads = 512;
// Two WarpReduce rounds of C10_WARP_SIZE lanes each.
constexpr int kCUDABlockReduceMaxThreads() {
  return C10_WARP_SIZE * C10_WARP_SIZE;
}

struct Block1D {
  static __forceinline__ __device__ int Tid() { return threadIdx.x; }
  static __forceinline__ __device__ int Warps() {
    return blockDim.x / C10_WARP_SIZE;
  }
};

template <typename T, class ReduceOp>
__inline__ __device__ T WarpReduce(T val, const ReduceOp &op) {
#pragma unroll
  for (int offset = (C10_WARP_SIZE >> 1); offset > 0; offset >>= 1)
    val = op.combine(val, op.warp_shfl_down(val, offset));
  return val;
}

/// The block's reduction, valid in thread 0. \p shared holds
/// C10_WARP_SIZE elements. The leading barrier lets callers reuse it.
template <typename T, class ReduceOp, typename B = Block1D>
__inline__ __device__ T BlockReduce(T val, const ReduceOp &op,
                                    const T &identity_element, T *shared) {
  const int tid = B::Tid();
  const int lid = tid % C10_WARP_SIZE;
  const int wid = tid / C10_WARP_SIZE;
  val = WarpReduce(val, op);
  __syncthreads();
  if (lid == 0)
    shared[wid] = val;
  __syncthreads();
  val = (tid < B::Warps()) ? shared[lid] : identity_element;
  if (wid == 0)
    val = WarpReduce(val, op);
  return val;
}

} // namespace cuda_utils

/// One block per row of \p X (rows x cols).
template <typename T>
__global__ void RowStatsCUDAKernel(int64_t cols, const T *X,
                                   long long *sums, T *maxes, float *means,
                                   float *vars) {
  using namespace cuda_utils;
  __shared__ long long s_sum[C10_WARP_SIZE];
  __shared__ T s_max[C10_WARP_SIZE];
  __shared__ typename std::aligned_storage<
      sizeof(WelfordData), alignof(WelfordData)>::type s_wf[C10_WARP_SIZE];
  WelfordData *s_wf_ptr = reinterpret_cast<WelfordData *>(s_wf);

  const int64_t row = blockIdx.x;
  long long sum = 0;
  T mx = X[row * cols];
  WelfordOps wf;
  WelfordData acc = {0.0f, 0.0f, 0.0f};
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    const T x = X[row * cols + j];
    sum += static_cast<long long>(x);
    mx = MaxOps<T>().combine(mx, x);
    acc = wf.reduce(acc, static_cast<float>(x));
  }

  sum = BlockReduce(sum, SumOps<long long>(), 0LL, s_sum);
  mx = BlockReduce(mx, MaxOps<T>(), X[row * cols], s_max);
  const WelfordData zero = {0.0f, 0.0f, 0.0f};
  acc = BlockReduce(acc, wf, zero, s_wf_ptr);

  if (threadIdx.x == 0) {
    sums[row] = sum;
    maxes[row] = mx;
    means[row] = acc.mean;
    vars[row] = acc.m2 / acc.nf;
  }
}

} // namespace native
} // namespace at

int main() {
  const int rows = 64;
  const int64_t cols = 3000;
  std::vector<float> h_x(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      h_x[r * cols + c] = (float)(((r * 31 + c * 17) % 101) - 45);

  float *d_x, *d_max, *d_mean, *d_var;
  long long *d_sum;
  C10_CUDA_CHECK(cudaMalloc(&d_x, sizeof(float) * rows * cols));
  C10_CUDA_CHECK(cudaMalloc(&d_sum, sizeof(long long) * rows));
  C10_CUDA_CHECK(cudaMalloc(&d_max, sizeof(float) * rows));
  C10_CUDA_CHECK(cudaMalloc(&d_mean, sizeof(float) * rows));
  C10_CUDA_CHECK(cudaMalloc(&d_var, sizeof(float) * rows));
  C10_CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), sizeof(float) * rows * cols,
                            cudaMemcpyHostToDevice));

  const int num_threads = at::native::cuda_utils::kCUDABlockReduceNumThreads;
  if (num_threads > at::native::cuda_utils::kCUDABlockReduceMaxThreads()) {
    fprintf(stderr, "block too large for BlockReduce\n");
    return 1;
  }
  at::native::RowStatsCUDAKernel<float><<<rows, num_threads, 0, 0>>>(
      cols, d_x, d_sum, d_max, d_mean, d_var);
  C10_CUDA_KERNEL_LAUNCH_CHECK();

  std::vector<long long> h_sum(rows);
  std::vector<float> h_max(rows), h_mean(rows), h_var(rows);
  C10_CUDA_CHECK(cudaMemcpy(h_sum.data(), d_sum, sizeof(long long) * rows,
                            cudaMemcpyDeviceToHost));
  C10_CUDA_CHECK(cudaMemcpy(h_max.data(), d_max, sizeof(float) * rows,
                            cudaMemcpyDeviceToHost));
  C10_CUDA_CHECK(cudaMemcpy(h_mean.data(), d_mean, sizeof(float) * rows,
                            cudaMemcpyDeviceToHost));
  C10_CUDA_CHECK(cudaMemcpy(h_var.data(), d_var, sizeof(float) * rows,
                            cudaMemcpyDeviceToHost));

  bool ok = true;
  long long sum_checksum = 0, max_checksum = 0;
  for (int r = 0; r < rows && ok; ++r) {
    long long s = 0;
    float mx = h_x[r * cols];
    for (int64_t c = 0; c < cols; ++c) {
      s += (long long)h_x[r * cols + c];
      if (h_x[r * cols + c] > mx)
        mx = h_x[r * cols + c];
    }
    double mean = (double)s / cols, var = 0.0;
    for (int64_t c = 0; c < cols; ++c)
      var += (h_x[r * cols + c] - mean) * (h_x[r * cols + c] - mean);
    var /= cols;
    if (h_sum[r] != s) {
      printf("FAIL: row %d sum %lld, expected %lld\n", r, h_sum[r], s);
      ok = false;
    } else if (h_max[r] != mx) {
      printf("FAIL: row %d max %g, expected %g\n", r, h_max[r], mx);
      ok = false;
    } else if (!(fabs(h_mean[r] - mean) <= 1e-4)) {
      printf("FAIL: row %d mean %g, expected %g\n", r, h_mean[r], mean);
      ok = false;
    } else if (!(fabs(h_var[r] - var) <= 1e-4 * var)) {
      printf("FAIL: row %d variance %g, expected %g\n", r, h_var[r], var);
      ok = false;
    }
    sum_checksum += h_sum[r] * (r + 1);
    max_checksum += (long long)h_max[r];
  }
  printf("row stats: %d rows x %lld cols\n", rows, (long long)cols);
  printf("row stats: weighted sum checksum = %lld\n", sum_checksum);
  printf("row stats: max checksum = %lld\n", max_checksum);

  C10_CUDA_CHECK(cudaFree(d_x));
  C10_CUDA_CHECK(cudaFree(d_sum));
  C10_CUDA_CHECK(cudaFree(d_max));
  C10_CUDA_CHECK(cudaFree(d_mean));
  C10_CUDA_CHECK(cudaFree(d_var));
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
