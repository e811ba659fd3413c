//===- examples/warp_scan.cpp - Inclusive prefix sum with warp shuffles ---===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Inclusive prefix sum written the way CUDA code does it, in three steps:
///  1. each warp scans its 32 elements with a __shfl_up_sync ladder under
///     the full 32-bit mask, and its last lane stores the warp total at
///     totals[global id / 32];
///  2. the host turns the totals into offsets with an exclusive scan over
///     every entry of the array;
///  3. a second parallelFor adds offsets[global id / 32] to each element.
/// The totals array is sized for the smallest mvector width (one entry per
/// MVECTOR_MIN work-items of the launch, zeroed by allocate): a wider warp
/// fills fewer entries and the zeros left over do not change the scan. The
/// result is the global inclusive scan whatever the width.
///
/// The 32s are CUDA's: on the CPU runtime a 32-bit mask acts on the
/// caller's 32-lane half of a 64-wide mvector, so the program gives the
/// same answer at HPP_CPU_MVECTOR=32 and 64; hpp-rewrite keeps the kernel's
/// 32-lane warps on every target (two per wave64 wavefront:
/// docs/width-model.md).
///
/// Compared element by element with std::partial_sum.
///
/// Usage: warp_scan [n]   (n defaults to 100000)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

using namespace hpp;

/// Work-group size of the launches.
constexpr std::size_t GroupSize = 256;

/// out[k] = in[0] + ... + in[k] for k < n.
void inclusiveScan(Pointer<int> in, Pointer<int> out, std::size_t n) {
  // Whole work-groups, so every warp is complete; the work-items past n
  // scan zeros.
  std::size_t global = (n + GroupSize - 1) / GroupSize * GroupSize;
  std::size_t entries = global / MVECTOR_MIN;
  Pointer<int> totals = allocate<int>(entries);

  parallelFor(Range<1, 1>(Range<1>(global), Range<1>(GroupSize)),
              [=](Index<1, 1> i) __device(hpp) {
                std::size_t g = i.getX();
                int lane = static_cast<int>(i.getLocalX()) & 31;
                int v = g < n ? in[g] : 0;
                for (int o = 1; o < 32; o *= 2) {
                  int t = __shfl_up_sync(0xffffffff, v, o);
                  if (lane >= o)
                    v += t;
                }
                if (g < n)
                  out[g] = v;
                if (lane == 31)
                  totals[g / 32] = v;
              });

  // Exclusive scan of the warp totals, in place: the offset of each warp.
  int running = 0;
  for (std::size_t w = 0; w < entries; ++w) {
    int total = totals[w];
    totals[w] = running;
    running += total;
  }

  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(GroupSize)),
              [=](Index<1, 1> i) __device(hpp) {
                std::size_t g = i.getX();
                out[g] += totals[g / 32];
              });
  deallocate(totals);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  if (n <= 0 || n > (1 << 24)) {
    std::fprintf(stderr, "usage: warp_scan [n], 0 < n <= 2^24\n");
    return 2;
  }

  Pointer<int> in = allocate<int>(n);
  Pointer<int> out = allocate<int>(n);
  for (int k = 0; k < n; ++k)
    in[k] = (k * 5 + k / 7) % 9 - 3;

  inclusiveScan(in, out, n);

  std::vector<int> expected(n);
  std::partial_sum(in.get(), in.get() + n, expected.begin());

  int status = 0;
  long long checksum = 0;
  for (int k = 0; k < n; ++k) {
    checksum += out[k];
    if (out[k] != expected[k] && status == 0) {
      std::printf("warp_scan n=%d mismatch at %d: got %d, expected %d\n", n, k,
                  out[k], expected[k]);
      status = 1;
    }
  }
  if (status == 0)
    std::printf("warp_scan n=%d last=%d checksum=%lld verified\n", n,
                out[n - 1], checksum);

  deallocate(in);
  deallocate(out);
  return status;
}
