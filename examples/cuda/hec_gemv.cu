//===- examples/cuda/hec_gemv.cu - HeCBench-style gemv, a warp per row ----===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Matrix-vector products y = A x with one warp per row, in the style of
/// the HeCBench benchmarks (zjin-lcf/HeCBench, src/*-cuda/main.cu): a
/// single main.cu, no error checking on the CUDA calls, the kernel timed
/// over `repeat` launches with std::chrono, and "PASS"/"FAIL" at the end.
///  - gemv_warp: `warp_id = threadIdx.x / 32`, `lane = threadIdx.x % 32`,
///    `row = blockIdx.x * (blockDim.x / 32) + warp_id`; a strided dot
///    product over the row, `__shfl_down_sync(0xffffffff, sum, offset)`
///    from 16, lane 0 writes;
///  - the host computes `rows_per_block = threads / 32` and the grid
///    `(rows + rows_per_block - 1) / rows_per_block`, so the last block is
///    partly idle;
///  - gemv_warp_persistent: the same with `#define WARP_SIZE 32`, a fixed
///    grid and a loop over rows with stride `gridDim.x * warps per block`.
///
/// Warp-32 assumptions: the literal 32 in both the kernel's lane/warp
/// arithmetic and the host's rows_per_block. Renamed only, for a 64-lane
/// wavefront: the 32-bit mask does not compile on ROCm 6.2 and later; with
/// it widened, each wavefront is two "warps" of 32 lanes, both shuffling
/// down from 16 under a 64-bit mask, which happens to stay right (the
/// offsets never cross 32). A port that replaces only the kernel's 32 with
/// warpSize computes half as many rows per block as the host launched for,
/// and rows past the middle of the grid are never written. HeCBench's HIP
/// ports carry one constant into both places (ORNL/HeCBench issue 171,
/// rsmt-hip: `WS = 32` drives `threadIdx.x % WS`, the loop strides and the
/// `WarpsPerBlock * WS` launch, and the benchmark aborts on wave64).
///
/// A and x hold small integers, so every dot product is exact and y is
/// compared exactly.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define WARP_SIZE 32

__global__ void gemv_warp(const float *__restrict__ A,
                          const float *__restrict__ x, float *__restrict__ y,
                          const int rows, const int cols) {
  const int warp_id = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * (blockDim.x / 32) + warp_id;
  if (row < rows) {
    float sum = 0.f;
    for (int c = lane; c < cols; c += 32)
      sum += A[(size_t)row * cols + c] * x[c];
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (lane == 0)
      y[row] = sum;
  }
}

__global__ void gemv_warp_persistent(const float *__restrict__ A,
                                     const float *__restrict__ x,
                                     float *__restrict__ y, const int rows,
                                     const int cols) {
  const int warps_per_block = blockDim.x / WARP_SIZE;
  const int lane = threadIdx.x & (WARP_SIZE - 1);
  for (int row = blockIdx.x * warps_per_block + threadIdx.x / WARP_SIZE;
       row < rows; row += gridDim.x * warps_per_block) {
    float sum = 0.f;
    for (int c = lane; c < cols; c += WARP_SIZE)
      sum += A[(size_t)row * cols + c] * x[c];
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
      sum += __shfl_xor_sync(0xffffffff, sum, offset);
    if (lane == 0)
      y[row] = sum;
  }
}

int main(int argc, char *argv[]) {
  const int rows = 1001;
  const int cols = 333;
  const int repeat = 5;

  std::vector<float> A((size_t)rows * cols), x(cols), y_ref(rows);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      A[(size_t)r * cols + c] =
          (float)(((r * 5 + c * 7 + (r * c) % 5) % 9) - 4);
  for (int c = 0; c < cols; c++)
    x[c] = (float)((c % 7) - 3);
  for (int r = 0; r < rows; r++) {
    long long s = 0;
    for (int c = 0; c < cols; c++)
      s += (long long)A[(size_t)r * cols + c] * (long long)x[c];
    y_ref[r] = (float)s;
  }

  float *d_A, *d_x, *d_y;
  cudaMalloc((void **)&d_A, sizeof(float) * rows * cols);
  cudaMalloc((void **)&d_x, sizeof(float) * cols);
  cudaMalloc((void **)&d_y, sizeof(float) * rows);
  cudaMemcpy(d_A, A.data(), sizeof(float) * rows * cols,
             cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x.data(), sizeof(float) * cols, cudaMemcpyHostToDevice);

  const int threads = 256;
  const int rows_per_block = threads / 32;
  const int blocks = (rows + rows_per_block - 1) / rows_per_block;

  bool ok = true;
  std::vector<float> y(rows);
  double checksum1 = 0.0, checksum2 = 0.0;

  // ---- gemv_warp ---------------------------------------------------------
  cudaMemset(d_y, 0, sizeof(float) * rows);
  cudaDeviceSynchronize();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repeat; i++)
    gemv_warp<<<blocks, threads>>>(d_A, d_x, d_y, rows, cols);
  cudaDeviceSynchronize();
  auto end = std::chrono::steady_clock::now();
  auto time =
      std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  fprintf(stderr, "Average kernel execution time (gemv_warp): %f (us)\n",
          (time * 1e-3f) / repeat);

  cudaMemcpy(y.data(), d_y, sizeof(float) * rows, cudaMemcpyDeviceToHost);
  for (int r = 0; r < rows; r++) {
    checksum1 += y[r];
    if (ok && y[r] != y_ref[r]) {
      printf("FAIL: gemv_warp y[%d] = %f, expected %f\n", r, y[r], y_ref[r]);
      ok = false;
    }
  }

  // ---- gemv_warp_persistent: a fixed grid of 40 blocks ------------------
  cudaMemset(d_y, 0, sizeof(float) * rows);
  start = std::chrono::steady_clock::now();
  for (int i = 0; i < repeat; i++)
    gemv_warp_persistent<<<40, 128>>>(d_A, d_x, d_y, rows, cols);
  cudaDeviceSynchronize();
  end = std::chrono::steady_clock::now();
  time =
      std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  fprintf(stderr, "Average kernel execution time (persistent): %f (us)\n",
          (time * 1e-3f) / repeat);

  cudaMemcpy(y.data(), d_y, sizeof(float) * rows, cudaMemcpyDeviceToHost);
  for (int r = 0; r < rows; r++) {
    checksum2 += y[r];
    if (ok && y[r] != y_ref[r]) {
      printf("FAIL: gemv_warp_persistent y[%d] = %f, expected %f\n", r, y[r],
             y_ref[r]);
      ok = false;
    }
  }

  printf("gemv: %d x %d\n", rows, cols);
  printf("gemv_warp: checksum = %.1f\n", checksum1);
  printf("gemv_warp_persistent: checksum = %.1f, y[0] = %.1f, y[%d] = %.1f\n",
         checksum2, y[0], rows - 1, y[rows - 1]);

  cudaFree(d_A);
  cudaFree(d_x);
  cudaFree(d_y);

  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
