//===- examples/warp_reduce.cpp - Float sum by warp shuffles, CUDA style --===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Sum of n floats written the way CUDA code does it: every work-item
/// accumulates many elements in a grid-stride loop (16-byte loads of four
/// floats, four loads in flight per iteration, the tail read one float at a
/// time), then each warp reduces its partial sums with a __shfl_down_sync
/// tree under the full 32-bit mask 0xffffffff, and the warp's leader (lane
/// & 31 == 0) adds the warp total to the result with one atomicAdd.
///
/// The 32s are CUDA's: on the CPU runtime a 32-bit mask acts on the
/// caller's 32-lane half of a 64-wide mvector, so the program gives the
/// same answer at HPP_CPU_MVECTOR=32 and 64; hpp-rewrite keeps the kernel's
/// 32-lane warps on every target (two per wave64 wavefront:
/// docs/width-model.md).
///
/// The inputs are k % 7: small integers, so the float sum is exact (and the
/// same in any order) for n <= 2^21 and checked exactly against a plain C++
/// sum; above that it is checked to a relative error of 1e-5.
/// reduceSum() is the reduction alone: bench/reduce_cub.cu times the
/// rewritten version of it against CUB.
///
/// Usage: warp_reduce [n]   (n defaults to 2^20)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace hpp;

/// Work-items per work-group of the reduction.
constexpr std::size_t GroupSize = 512;
/// Most work-groups of one launch: tuned the CUDA way for a 132-SM GPU
/// (H100, H200): two work-groups of 512 per SM, one full wave. With four
/// 16-byte loads per work-item in flight that is 8 MiB, enough to saturate
/// HBM, and it caps the atomics at MaxGroups * GroupSize / 32.
/// (docs/benchmarks.md compares grid shapes.)
constexpr std::size_t MaxGroups = 264;
/// Fewest floats a work-item sums before another work-group is added.
constexpr std::size_t MinPerItem = 64;

/// Four floats read with one 16-byte load.
struct alignas(16) Float4 {
  float x, y, z, w;
};

__device(hpp) inline float sum4(Float4 v) { return (v.x + v.y) + (v.z + v.w); }

/// Work-groups for a reduction of \p n floats: enough that every work-item
/// sums at least MinPerItem floats, at most MaxGroups.
std::size_t reduceGroups(std::size_t n) {
  std::size_t groups =
      (n + GroupSize * MinPerItem - 1) / (GroupSize * MinPerItem);
  if (groups < 1)
    groups = 1;
  return groups < MaxGroups ? groups : MaxGroups;
}

/// Adds the sum of in[0..n) to sum[0] (the caller zeroes it). in must be
/// 16-byte aligned (allocate's memory is).
void reduceSum(Pointer<float> in, std::size_t n, Pointer<float> sum) {
  std::size_t groups = reduceGroups(n);
  parallelFor(Range<1, 1>(Range<1>(groups * GroupSize), Range<1>(GroupSize)),
              [=](Index<1, 1> i) __device(hpp) {
                std::size_t item = i.getX();
                std::size_t items = i.getGlobalSizeX();
                int lane = static_cast<int>(i.getLocalX());

                // Grid-stride loop over the whole four-float vectors, four
                // independent loads per iteration.
                const Float4 *in4 = reinterpret_cast<const Float4 *>(in.get());
                std::size_t vectors = n / 4;
                float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
                std::size_t v = item;
                for (; v + 3 * items < vectors; v += 4 * items) {
                  Float4 x0 = in4[v];
                  Float4 x1 = in4[v + items];
                  Float4 x2 = in4[v + 2 * items];
                  Float4 x3 = in4[v + 3 * items];
                  a0 += sum4(x0);
                  a1 += sum4(x1);
                  a2 += sum4(x2);
                  a3 += sum4(x3);
                }
                for (; v < vectors; v += items)
                  a0 += sum4(in4[v]);
                // The last n % 4 floats, one each.
                for (std::size_t e = 4 * vectors + item; e < n; e += items)
                  a1 += in[e];
                float value = (a0 + a1) + (a2 + a3);

                // Warp tree: lane 0 of each warp ends up with the warp's sum.
                for (int offset = 16; offset > 0; offset /= 2)
                  value += __shfl_down_sync(0xffffffff, value, offset);
                if ((lane & 31) == 0)
                  atomicAdd(sum, value);
              });
}

int main(int argc, char **argv) {
  long long requested = argc > 1 ? std::atoll(argv[1]) : (1LL << 20);
  if (requested <= 0) {
    std::fprintf(stderr, "usage: warp_reduce [n], n > 0\n");
    return 2;
  }
  std::size_t n = static_cast<std::size_t>(requested);

  Pointer<float> in = allocate<float>(n);
  Pointer<float> sum = allocate<float>(1);
  long long expected = 0;
  for (std::size_t k = 0; k < n; ++k) {
    in[k] = static_cast<float>(k % 7);
    expected += static_cast<long long>(k % 7);
  }

  reduceSum(in, n, sum);

  // Exact up to 2^21 elements (every partial sum is an integer below 2^24).
  double got = sum[0];
  bool exact = n <= (std::size_t(1) << 21);
  bool ok = exact ? got == static_cast<double>(expected)
                  : std::fabs(got - static_cast<double>(expected)) <=
                        1e-5 * static_cast<double>(expected);
  int status = 0;
  if (ok) {
    std::printf("warp_reduce n=%zu sum=%.17g verified\n", n, got);
  } else {
    std::printf("warp_reduce n=%zu sum=%.17g, expected %lld\n", n, got,
                expected);
    status = 1;
  }

  deallocate(in);
  deallocate(sum);
  return status;
}
