//===- examples/ft_block_reduce.cpp - FasterTransformer's blockReduceSum --===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Row-wise layer normalization built on the warp and block reductions of
/// NVIDIA FasterTransformer (src/fastertransformer/kernels/
/// reduce_kernel_utils.cuh: warpReduceSum and blockReduceSum; the caller is
/// shaped like generalLayerNorm in layernorm_kernels.cu), written again in
/// the dialect with the same idioms:
///  - `#define FINAL_MASK 0xffffffff`; warpReduceSum is an xor tree from 16
///    down to 1 with an explicit width of 32:
///    `__shfl_xor_sync(FINAL_MASK, val, mask, 32)`;
///  - blockReduceSum: `lane = tid & 0x1f`, `wid = tid >> 5`, 32 per-warp
///    slots in work-group memory (`static __shared__ T shared[32]` there, a
///    Region of 32 here), the barrier, then every warp reduces
///    `tid < blockDim / 32.f ? shared[lane] : 0`, so warp 0 ends with the
///    block's sum;
///  - the host picks the work-group size like generalLayerNorm:
///    min(cols, 1024), or 1024 when cols is not a multiple of 32.
/// One work-group per row: the row's sum gives the mean (work-item 0
/// stores it in work-group memory), a second blockReduceSum the variance.
///
/// Right at 64 as written. The mask is 32 bits and the width 32, so the
/// warps are CUDA's 32-lane ones on any device; on the CPU reference a
/// 32-bit mask acts on the caller's 32-lane half of a 64-wide mvector, and
/// the output is byte-identical at HPP_CPU_MVECTOR=32 and 64. What went
/// wrong on wave64: ROCm's *_sync shuffles reject the 32-bit FINAL_MASK at
/// compile time; vLLM's copy of these functions (csrc/reduction_utils.cuh)
/// dropped the width, and when vllm-project/vllm PR 3262 widened the xor tree
/// to WARP_SIZE/2 = 32 for ROCm but kept `& 0x1f` and `>> 5`, lanes 0 and 32 of
/// every 64-lane wavefront each stored the whole wavefront's sum, so block sums
/// came out doubled and the layernorm test failed until PR 3321 derived lane
/// and wid from WARP_SIZE.
///
/// The inputs are small integers: every row sum is exact and checked
/// exactly; the normalized outputs are checked against a double-precision
/// host computation to 1e-3.
///
/// Usage: ft_block_reduce [rows [cols]]   (defaults 64 and 1000)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

using namespace hpp;

#define FINAL_MASK 0xffffffff

/// The sum of \p val over each 32-lane warp, in every lane.
template <typename T> __device(hpp) inline T warpReduceSum(T val) {
  for (int mask = 16; mask > 0; mask >>= 1)
    val += __shfl_xor_sync(FINAL_MASK, val, mask, 32);
  return val;
}

/// The sum of \p val over the work-group, in the lanes of warp 0. \p shared
/// holds 32 per-warp slots; \p tid is the local id, \p blockDimX the
/// work-group size.
template <typename T>
__device(hpp) inline T
    blockReduceSum(T val, Segment<T> shared, unsigned tid, unsigned blockDimX) {
  int lane = tid & 0x1f;
  int wid = tid >> 5;

  val = warpReduceSum<T>(val);

  if (lane == 0)
    shared[wid] = val;

  shared.barrier();

  // As FasterTransformer has it: blockDim / 32.f, so that a work-group
  // size that is not a multiple of 32 still counts its last warp.
  val = (tid < (blockDimX / 32.f)) ? shared[lane] : (T)(0.0f);
  val = warpReduceSum<T>(val);
  return val;
}

/// out[r][c] = (in[r][c] - mean_r) * rstd_r * gamma[c] + beta[c], and
/// rowSums[r] = the sum of row r, for rows x cols row-major floats.
static void layerNorm(Pointer<float> in, Pointer<float> gamma,
                      Pointer<float> beta, Pointer<float> out,
                      Pointer<float> rowSums, int rows, int cols,
                      unsigned block) {
  const float eps = 1e-6f;
  DistArray<float> smem;
  Region<float> sharedSlots = smem.allocRegion(32);
  Region<float> stats = smem.allocRegion(2); // s_mean, s_variance
  parallelFor(
      Range<1, 1>(Range<1>(std::size_t(rows) * block), Range<1>(block)), smem,
      [=](Index<1, 1> i, BoundDistArray<float> a) __device(hpp) {
        Segment<float> shared = a(sharedSlots), s = a(stats);
        const unsigned tid = static_cast<unsigned>(i.getLocalX());
        const unsigned blockDimX = static_cast<unsigned>(i.getLocalSizeX());
        const std::size_t row = i.getGroupX() * std::size_t(cols);

        float local_sum = 0.0f;
        for (int k = tid; k < cols; k += blockDimX)
          local_sum += in[row + k];
        float sum = blockReduceSum<float>(local_sum, shared, tid, blockDimX);
        if (tid == 0) {
          rowSums[i.getGroupX()] = sum;
          s[0] = sum / cols;
        }
        s.barrier();
        const float mean = s[0];

        float local_var_sum = 0.0f;
        for (int k = tid; k < cols; k += blockDimX) {
          float diff = in[row + k] - mean;
          local_var_sum += diff * diff;
        }
        float variance =
            blockReduceSum<float>(local_var_sum, shared, tid, blockDimX);
        if (tid == 0)
          s[1] = 1.0f / std::sqrt(variance / cols + eps);
        s.barrier();
        const float rstd = s[1];

        for (int k = tid; k < cols; k += blockDimX)
          out[row + k] = (in[row + k] - mean) * rstd * gamma[k] + beta[k];
      });
}

int main(int argc, char **argv) {
  int rows = argc > 1 ? std::atoi(argv[1]) : 64;
  int cols = argc > 2 ? std::atoi(argv[2]) : 1000;
  if (rows <= 0 || cols <= 0 || cols > (1 << 20)) {
    std::fprintf(stderr, "usage: ft_block_reduce [rows [cols]], rows > 0, "
                         "0 < cols <= 2^20\n");
    return 2;
  }
  // The work-group size, as generalLayerNorm's host code picks it.
  unsigned block = cols < 1024 ? unsigned(cols) : 1024u;
  if (cols % 32 != 0)
    block = 1024;

  const std::size_t n = std::size_t(rows) * cols;
  Pointer<float> in = allocate<float>(n), out = allocate<float>(n);
  Pointer<float> gamma = allocate<float>(cols), beta = allocate<float>(cols);
  Pointer<float> rowSums = allocate<float>(rows);
  for (std::size_t k = 0; k < n; ++k)
    in[k] = static_cast<float>(static_cast<int>((k * 37 + k / 11) % 19) - 6);
  for (int c = 0; c < cols; ++c) {
    gamma[c] = 1.0f + static_cast<float>(c % 5) * 0.25f;
    beta[c] = static_cast<float>(c % 3) - 1.0f;
  }

  int status = 0;
  try {
    layerNorm(in, gamma, beta, out, rowSums, rows, cols, block);
  } catch (const std::exception &e) {
    std::printf("ft_block_reduce rows=%d cols=%d block=%u error: %s\n", rows,
                cols, block, e.what());
    return 1;
  }

  long long total = 0;
  for (int r = 0; r < rows && status == 0; ++r) {
    long long want = 0;
    for (int c = 0; c < cols; ++c)
      want += static_cast<long long>(in[std::size_t(r) * cols + c]);
    if (!(rowSums[r] == static_cast<float>(want))) {
      std::printf("ft_block_reduce rows=%d cols=%d mismatch: row %d sum %.9g, "
                  "expected %lld\n",
                  rows, cols, r, double(rowSums[r]), want);
      status = 1;
      break;
    }
    total += want;
    double mean = double(want) / cols, var = 0;
    for (int c = 0; c < cols; ++c) {
      double d = in[std::size_t(r) * cols + c] - mean;
      var += d * d;
    }
    double rstd = 1.0 / std::sqrt(var / cols + 1e-6);
    for (int c = 0; c < cols; ++c) {
      std::size_t k = std::size_t(r) * cols + c;
      double expected = (in[k] - mean) * rstd * gamma[c] + beta[c];
      if (!(std::fabs(out[k] - expected) <= 1e-3)) {
        std::printf("ft_block_reduce rows=%d cols=%d mismatch: out[%d][%d] = "
                    "%.9g, expected %.9g\n",
                    rows, cols, r, c, double(out[k]), expected);
        status = 1;
        break;
      }
    }
  }
  if (status == 0)
    std::printf("ft_block_reduce rows=%d cols=%d block=%u sum=%lld verified\n",
                rows, cols, block, total);

  deallocate(in);
  deallocate(out);
  deallocate(gamma);
  deallocate(beta);
  deallocate(rowSums);
  return status;
}
