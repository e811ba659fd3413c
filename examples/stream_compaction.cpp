//===- examples/stream_compaction.cpp - Keep what a predicate says --------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Stream compaction written the way CUDA code does it: each warp votes
/// with __ballot_sync(0xffffffff, keep), counts its kept elements with
/// __popc, and gives each kept element its rank among them (the kept lanes
/// below it); the warp's leader reserves room for the warp with one
/// atomicAdd on a global counter, broadcasts the base with
/// __shfl_sync(0xffffffff, base, 0), and every kept element is written to
/// base + rank. The launch is rounded up to whole work-groups, so every
/// warp is complete and the elements past n vote "drop".
///
/// The 32s are CUDA's: on the CPU runtime a 32-bit mask acts on the
/// caller's 32-lane half of a 64-wide mvector (the ballot returns that
/// half's bits), so the program gives the same answer at HPP_CPU_MVECTOR=32
/// and 64; hpp-rewrite turns the masks and the lane arithmetic into the
/// executing device's width.
///
/// The warps reserve their room in any order, so the output is sorted
/// before it is compared with a plain C++ filter of the input; the count
/// must match exactly.
///
/// Usage: stream_compaction [n]   (n defaults to 100000)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace hpp;

/// Work-group size of the launch.
constexpr std::size_t GroupSize = 256;

/// The predicate: keep the multiples of 3.
__device(hpp) inline bool keepValue(int value) { return value % 3 == 0; }

/// Copies the elements of in[0..n) that keepValue() accepts to out (in some
/// order) and returns how many there are.
int compact(Pointer<int> in, std::size_t n, Pointer<int> out) {
  Pointer<int> counter = allocate<int>(1);
  std::size_t global = (n + GroupSize - 1) / GroupSize * GroupSize;
  parallelFor(Range<1, 1>(Range<1>(global), Range<1>(GroupSize)),
              [=](Index<1, 1> i) __device(hpp) {
                std::size_t g = i.getX();
                int lane = static_cast<int>(i.getLocalX()) & 31;
                int value = g < n ? in[g] : 0;
                bool keep = g < n && keepValue(value);

                unsigned ballot = __ballot_sync(0xffffffff, keep);
                int count = __popc(ballot);
                int rank = __popc(ballot & ((1u << lane) - 1));
                int base = 0;
                if (lane == 0 && count > 0)
                  base = atomicAdd(counter, count);
                base = __shfl_sync(0xffffffff, base, 0);
                if (keep)
                  out[base + rank] = value;
              });
  int kept = counter[0];
  deallocate(counter);
  return kept;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  if (n <= 0) {
    std::fprintf(stderr, "usage: stream_compaction [n], n > 0\n");
    return 2;
  }

  Pointer<int> in = allocate<int>(n);
  Pointer<int> out = allocate<int>(n);
  for (int k = 0; k < n; ++k)
    in[k] = (k * 37 + k / 5) % 1001 - 400;

  int kept = compact(in, n, out);

  std::vector<int> expected;
  for (int k = 0; k < n; ++k)
    if (in[k] % 3 == 0)
      expected.push_back(in[k]);
  std::sort(expected.begin(), expected.end());

  int status = 0;
  if (kept != static_cast<int>(expected.size())) {
    std::printf("stream_compaction n=%d kept=%d, expected %d\n", n, kept,
                static_cast<int>(expected.size()));
    status = 1;
  } else {
    std::vector<int> got(out.get(), out.get() + kept);
    std::sort(got.begin(), got.end());
    long long checksum = 0;
    for (int e = 0; e < kept; ++e) {
      checksum += got[e];
      if (got[e] != expected[e] && status == 0) {
        std::printf("stream_compaction n=%d mismatch at sorted position %d: "
                    "got %d, expected %d\n",
                    n, e, got[e], expected[e]);
        status = 1;
      }
    }
    if (status == 0)
      std::printf("stream_compaction n=%d kept=%d checksum=%lld verified\n", n,
                  kept, checksum);
  }

  deallocate(in);
  deallocate(out);
  return status;
}
