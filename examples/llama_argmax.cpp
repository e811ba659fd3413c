//===- examples/llama_argmax.cpp - llama.cpp's warp argmax ----------------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Row-wise argmax in the shape of llama.cpp's CUDA backend
/// (ggml/src/ggml-cuda/argmax.cu: argmax_f32 and ggml_cuda_argmax; WARP_SIZE
/// from common.cuh), written again in the dialect with the same idioms.
/// One work-group per row, min(1024, ncols rounded up to WARP_SIZE)
/// work-items:
///  - `#define WARP_SIZE 32`; each work-item scans its columns (strict `>`,
///    so it keeps the lowest of equal ones);
///  - a warp max-reduction of (value, index) pairs: `for (offset =
///    WARP_SIZE/2; offset > 0; offset >>= 1)`, two
///    `__shfl_xor_sync(0xFFFFFFFF, ..., offset, WARP_SIZE)` per step, ties
///    broken by the lower index;
///  - `n_warps = blockDim.x / WARP_SIZE`, `lane_id = threadIdx.x %
///    WARP_SIZE`, `warp_id = threadIdx.x / WARP_SIZE`; with more than one
///    warp, lane 0 of each stores its pair in work-group memory (`max_warps
///    = 1024 / WARP_SIZE` slots; __shared__ shared_maxval and shared_argmax
///    there, one slot struct here), a barrier, and the first warp
///    (`if (warp_id == 0)`, all its lanes) loads `lane_id < n_warps` slots
///    and reduces them the same way; lane 0 of warp 0 writes the row's
///    argmax.
///
/// Right at 64 as written: WARP_SIZE is 32 and the masks 32 bits, so at 64
/// lanes (HPP_CPU_MVECTOR=64) each 32-lane half of the mvector is a warp of
/// its own, as on CUDA, and the slots reduced in `if (warp_id == 0)` are
/// reduced by one half alone (hpp-rewrite keeps these 32-lane warps on
/// wave64, docs/width-model.md). What goes wrong on wave64: ROCm's *_sync shuffles reject
/// the 32-bit mask at compile time; setting WARP_SIZE to 64 for MI GPUs
/// gave garbage output from the whole CUDA backend (ggml-org/llama.cpp
/// issue 3630: shuffle widths, shared arrays and loops still assumed 32);
/// and an xor tree from a literal 16 (argmax before llama.cpp PR 18092)
/// skips the offset-32 step of a 64-wide warp.
///
/// The values are small integers with many ties, so the lowest index of
/// the maximum is what a plain C++ scan finds; every row is compared.
///
/// Usage: llama_argmax [nrows [ncols]]   (defaults 64 and 5000)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <exception>

using namespace hpp;

#define WARP_SIZE 32

/// One warp's (value, index) pair in work-group memory.
struct WarpMax {
  float maxval;
  int argmax;
};

/// dst[r] = the lowest column holding the maximum of row r.
static void argmaxF32(Pointer<float> x, Pointer<int> dst, int nrows,
                      int ncols) {
  const int num_threads =
      std::min(1024, (ncols + WARP_SIZE - 1) / WARP_SIZE * WARP_SIZE);
  constexpr int max_warps = 1024 / WARP_SIZE;
  DistArray<WarpMax> smem;
  Region<WarpMax> slots = smem.allocRegion(max_warps);
  parallelFor(
      Range<1, 1>(Range<1>(std::size_t(nrows) * num_threads),
                  Range<1>(num_threads)),
      smem, [=](Index<1, 1> i, BoundDistArray<WarpMax> a) __device(hpp) {
        Segment<WarpMax> shared = a(slots);
        const int row = static_cast<int>(i.getGroupX());
        const int threadIdxX = static_cast<int>(i.getLocalX());
        const int blockDimX = static_cast<int>(i.getLocalSizeX());

        float maxval = -FLT_MAX;
        int argmax = -1;
        const float *rowx = x.get() + std::size_t(row) * ncols;

        for (int col = threadIdxX; col < ncols; col += blockDimX) {
          const float val = rowx[col];
          if (val > maxval) {
            maxval = val;
            argmax = col;
          }
        }

        for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1) {
          const float val =
              __shfl_xor_sync(0xFFFFFFFF, maxval, offset, WARP_SIZE);
          const int col =
              __shfl_xor_sync(0xFFFFFFFF, argmax, offset, WARP_SIZE);
          if (val > maxval) {
            maxval = val;
            argmax = col;
          } else if (val == maxval && col < argmax) {
            argmax = col; // the lowest index wins a tie
          }
        }

        const int n_warps = blockDimX / WARP_SIZE;
        const int lane_id = threadIdxX % WARP_SIZE;
        const int warp_id = threadIdxX / WARP_SIZE;
        if (n_warps > 1) {
          if (lane_id == 0)
            shared[warp_id] = WarpMax{maxval, argmax};

          shared.barrier();

          if (warp_id == 0) {
            if (lane_id < n_warps) {
              maxval = shared[lane_id].maxval;
              argmax = shared[lane_id].argmax;
            }
            for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1) {
              const float val =
                  __shfl_xor_sync(0xFFFFFFFF, maxval, offset, WARP_SIZE);
              const int col =
                  __shfl_xor_sync(0xFFFFFFFF, argmax, offset, WARP_SIZE);
              if (val > maxval) {
                maxval = val;
                argmax = col;
              } else if (val == maxval && col < argmax) {
                argmax = col;
              }
            }
          }
        }

        if (warp_id == 0 && lane_id == 0)
          dst[row] = argmax;
      });
}

int main(int argc, char **argv) {
  int nrows = argc > 1 ? std::atoi(argv[1]) : 64;
  int ncols = argc > 2 ? std::atoi(argv[2]) : 5000;
  if (nrows <= 0 || ncols <= 0 || ncols > (1 << 20)) {
    std::fprintf(stderr, "usage: llama_argmax [nrows [ncols]], nrows > 0, "
                         "0 < ncols <= 2^20\n");
    return 2;
  }
  const std::size_t n = std::size_t(nrows) * ncols;
  Pointer<float> x = allocate<float>(n);
  Pointer<int> dst = allocate<int>(nrows);
  // Values 0..96 (some rows up to 199): the maximum recurs in most rows.
  for (int r = 0; r < nrows; ++r)
    for (int c = 0; c < ncols; ++c) {
      int v = (r * 131 + c * 29 + c / 97) % 97;
      if (r % 5 == 3 && c == (r * 7919) % ncols)
        v = 199; // a single maximum
      x[std::size_t(r) * ncols + c] = static_cast<float>(v - 40);
    }

  const int threads =
      std::min(1024, (ncols + WARP_SIZE - 1) / WARP_SIZE * WARP_SIZE);
  try {
    argmaxF32(x, dst, nrows, ncols);
  } catch (const std::exception &e) {
    std::printf("llama_argmax nrows=%d ncols=%d threads=%d error: %s\n", nrows,
                ncols, threads, e.what());
    return 1;
  }

  int status = 0;
  long long checksum = 0;
  for (int r = 0; r < nrows; ++r) {
    const float *row = x.get() + std::size_t(r) * ncols;
    int want = 0;
    for (int c = 1; c < ncols; ++c)
      if (row[c] > row[want])
        want = c;
    if (dst[r] != want) {
      std::printf("llama_argmax nrows=%d ncols=%d mismatch in row %d: %d, "
                  "expected %d\n",
                  nrows, ncols, r, dst[r], want);
      status = 1;
      break;
    }
    checksum += static_cast<long long>(want) * (r + 1);
  }
  if (status == 0)
    std::printf("llama_argmax nrows=%d ncols=%d threads=%d checksum=%lld "
                "verified\n",
                nrows, ncols, threads, checksum);

  deallocate(x);
  deallocate(dst);
  return status;
}
