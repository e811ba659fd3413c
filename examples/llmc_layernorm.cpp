//===- examples/llmc_layernorm.cpp - llm.c's blockReduce in a layernorm ---===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LayerNorm forward (one work-group per row of C channels: the mean, the
/// reciprocal standard deviation, the normalized, scaled and shifted row,
/// and the row's largest |output|) built on the warp and block reductions
/// of karpathy/llm.c (llmc/cuda_utils.cuh: warpReduceSum, warpReduceMax,
/// blockReduce; WARP_SIZE from llmc/cuda_common.h), written again in the
/// dialect with the same idioms:
///  - `#define WARP_SIZE 32U`;
///  - warpReduceSum / warpReduceMax: an xor tree from 16 under
///    0xFFFFFFFF, no width;
///  - `template <reduction_func_t warp_reduction> blockReduce(val,
///    final_sync, out_of_bounds)`: `lane_id = threadIdx.x % WARP_SIZE`,
///    `warp_id = threadIdx.x / WARP_SIZE`, `num_warps = blockDim.x /
///    WARP_SIZE`, `[WARP_SIZE]` per-warp slots in work-group memory
///    (`__shared__ float shared_val[WARP_SIZE]` there), a barrier, then
///    every warp reduces `lane_id < num_warps ? shared_val[lane_id] :
///    out_of_bounds`, so every work-item gets the block's result;
///    final_sync adds the barrier that lets the next call reuse the slots.
///
/// Right at 64 as written: WARP_SIZE is 32 and the mask 32 bits, so the
/// warps are CUDA's 32-lane ones on any device; on the CPU reference a
/// 32-bit mask acts on the caller's 32-lane half of a 64-wide mvector, and
/// the output is byte-identical at HPP_CPU_MVECTOR=32 and 64. What goes
/// wrong on wave64: ROCm's *_sync shuffles reject the 32-bit mask at
/// compile time, and a port that sets WARP_SIZE to 64 (llm.c's ROCm build
/// takes it from the target) must also start the xor trees at
/// WARP_SIZE / 2: from 16 they leave each 64-lane wavefront's halves
/// unreduced, and lane 0 stores only its half's sum.
///
/// The inputs are small integers: the row sums are exact and checked
/// exactly; mean, rstd and the outputs are checked against a
/// double-precision host computation to 1e-4 and 1e-3, and each row's
/// max |output| exactly against the outputs.
///
/// Usage: llmc_layernorm [N [C [block_size]]]   (defaults 64, 768, 256;
/// block_size a multiple of 32, at most 1024)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>

using namespace hpp;

#define WARP_SIZE 32U

__device(hpp) inline float maxOf(float a, float b) { return a > b ? a : b; }

/// warp-level reduction for summing values
__device(hpp) inline float warpReduceSum(float val) {
  for (int offset = 16; offset > 0; offset /= 2)
    val += __shfl_xor_sync(0xFFFFFFFF, val, offset);
  return val;
}
/// warp-level reduction for finding the maximum value
__device(hpp) inline float warpReduceMax(float val) {
  for (int offset = 16; offset > 0; offset /= 2)
    val = maxOf(val, __shfl_xor_sync(0xFFFFFFFF, val, offset));
  return val;
}

using reduction_func_t = float (*)(float);

/// The work-group's reduction of \p val, in every work-item. \p shared_val
/// holds WARP_SIZE per-warp slots.
template <reduction_func_t warp_reduction>
__device(hpp) inline float blockReduce(float val, Segment<float> shared_val,
                                       unsigned threadIdxX, unsigned blockDimX,
                                       bool final_sync = false,
                                       float out_of_bounds = 0.0f) {
  const int lane_id = threadIdxX % WARP_SIZE;
  const int warp_id = threadIdxX / WARP_SIZE;
  const int num_warps = blockDimX / WARP_SIZE;

  float warp_val = warp_reduction(val);
  if (lane_id == 0)
    shared_val[warp_id] = warp_val;
  shared_val.barrier();
  warp_val = (lane_id < num_warps) ? shared_val[lane_id] : out_of_bounds;
  float block_val = warp_reduction(warp_val);

  if (final_sync)
    shared_val.barrier(); // the slots are reused by the next call
  return block_val;
}

/// LayerNorm of N rows of C floats; mean, rstd, sums and absmax per row.
static void layernormForward(Pointer<float> out, Pointer<float> mean,
                             Pointer<float> rstd, Pointer<float> sums,
                             Pointer<float> absmax, Pointer<float> inp,
                             Pointer<float> weight, Pointer<float> bias, int N,
                             int C, int block_size) {
  DistArray<float> smem;
  Region<float> slots = smem.allocRegion(WARP_SIZE);
  parallelFor(
      Range<1, 1>(Range<1>(std::size_t(N) * block_size), Range<1>(block_size)),
      smem, [=](Index<1, 1> i, BoundDistArray<float> a) __device(hpp) {
        Segment<float> shared_val = a(slots);
        const unsigned tid = static_cast<unsigned>(i.getLocalX());
        const unsigned bdim = static_cast<unsigned>(i.getLocalSizeX());
        const int idx = static_cast<int>(i.getGroupX());
        const float *x = inp.get() + std::size_t(idx) * C;

        float sum = 0.0f;
        for (int c = tid; c < C; c += bdim)
          sum += x[c];
        sum = blockReduce<warpReduceSum>(sum, shared_val, tid, bdim, true);
        float m = sum / C;

        float v = 0.0f;
        for (int c = tid; c < C; c += bdim)
          v += (x[c] - m) * (x[c] - m);
        v = blockReduce<warpReduceSum>(v, shared_val, tid, bdim, true) / C;
        float s = 1.0f / std::sqrt(v + 1e-5f);

        float amax = 0.0f;
        float *o = out.get() + std::size_t(idx) * C;
        for (int c = tid; c < C; c += bdim) {
          float n = s * (x[c] - m);       // normalized output
          o[c] = n * weight[c] + bias[c]; // scale and shift it
          amax = maxOf(amax, std::fabs(o[c]));
        }
        amax = blockReduce<warpReduceMax>(amax, shared_val, tid, bdim);
        if (tid == 0) {
          mean[idx] = m;
          rstd[idx] = s;
          sums[idx] = sum;
          absmax[idx] = amax;
        }
      });
}

int main(int argc, char **argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 64;
  int C = argc > 2 ? std::atoi(argv[2]) : 768;
  int block_size = argc > 3 ? std::atoi(argv[3]) : 256;
  if (N <= 0 || C <= 0 || C > (1 << 20) || block_size <= 0 ||
      block_size > 1024 || block_size % 32 != 0) {
    std::fprintf(stderr, "usage: llmc_layernorm [N [C [block_size]]], N > 0, "
                         "0 < C <= 2^20, block_size a multiple of 32 <= "
                         "1024\n");
    return 2;
  }
  const std::size_t n = std::size_t(N) * C;
  Pointer<float> inp = allocate<float>(n), out = allocate<float>(n);
  Pointer<float> weight = allocate<float>(C), bias = allocate<float>(C);
  Pointer<float> mean = allocate<float>(N), rstd = allocate<float>(N);
  Pointer<float> sums = allocate<float>(N), absmax = allocate<float>(N);
  for (std::size_t k = 0; k < n; ++k)
    inp[k] = static_cast<float>(static_cast<int>((k * 29 + k / 7) % 23) - 7);
  for (int c = 0; c < C; ++c) {
    weight[c] = 0.5f + static_cast<float>(c % 4) * 0.25f;
    bias[c] = static_cast<float>(c % 5) * 0.5f - 1.0f;
  }

  try {
    layernormForward(out, mean, rstd, sums, absmax, inp, weight, bias, N, C,
                     block_size);
  } catch (const std::exception &e) {
    std::printf("llmc_layernorm N=%d C=%d block_size=%d error: %s\n", N, C,
                block_size, e.what());
    return 1;
  }

  int status = 0;
  long long total = 0;
  for (int r = 0; r < N && status == 0; ++r) {
    const float *x = inp.get() + std::size_t(r) * C;
    const float *o = out.get() + std::size_t(r) * C;
    long long want = 0;
    float amax = 0.0f;
    for (int c = 0; c < C; ++c) {
      want += static_cast<long long>(x[c]);
      amax = std::fabs(o[c]) > amax ? std::fabs(o[c]) : amax;
    }
    double m = double(want) / C, var = 0;
    for (int c = 0; c < C; ++c)
      var += (x[c] - m) * (x[c] - m);
    double s = 1.0 / std::sqrt(var / C + 1e-5);
    bool ok = sums[r] == static_cast<float>(want) && absmax[r] == amax &&
              std::fabs(mean[r] - m) <= 1e-4 && std::fabs(rstd[r] - s) <= 1e-4;
    for (int c = 0; c < C && ok; ++c)
      ok = std::fabs(o[c] - ((x[c] - m) * s * weight[c] + bias[c])) <= 1e-3;
    if (!ok) {
      std::printf("llmc_layernorm N=%d C=%d mismatch in row %d: sum %.9g "
                  "(expected %lld), mean %.9g, rstd %.9g, absmax %.9g\n",
                  N, C, r, double(sums[r]), want, double(mean[r]),
                  double(rstd[r]), double(absmax[r]));
      status = 1;
    }
    total += want;
  }
  if (status == 0)
    std::printf("llmc_layernorm N=%d C=%d block_size=%d sum=%lld verified\n", N,
                C, block_size, total);

  deallocate(inp);
  deallocate(out);
  deallocate(weight);
  deallocate(bias);
  deallocate(mean);
  deallocate(rstd);
  deallocate(sums);
  deallocate(absmax);
  return status;
}
