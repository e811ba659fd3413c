//===- examples/segmented_reduce.cpp - TPS segmented sums ------------------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Sums the segments of a CSR-style array (offsets + values), TNL's
/// "threads per segment" (TPS) way: TPS consecutive work-items share a
/// segment, each sums a strided part of it, and a shuffle reduction of
/// width TPS combines the parts. TPS is a template parameter chosen by the
/// host from MVECTOR_SIZE: a whole mvector per segment when segments are
/// long, a quarter of one when they are short. On a GPU the width is only
/// known at run time on the host, so hpp-rewrite lowers each launch to a
/// 32/64 dispatch; on the CPU reference runtime the width is compiled in
/// (-DHPP_CPU_MVECTOR=32|64).
///
/// Usage: segmented_reduce [segments [max-length]]
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace hpp;

/// Work-group size of the launches.
constexpr int GroupSize = 256;

/// sums[s] = the sum of values[offsets[s] .. offsets[s + 1]), TPS work-items
/// per segment.
template <int TPS>
void segmentedSum(Pointer<int> offsets, Pointer<float> values,
                  Pointer<float> sums, int segments) {
  // Whole work-groups: every lane of every mvector reaches the shuffles.
  std::size_t items = std::size_t(segments) * TPS;
  std::size_t padded = (items + GroupSize - 1) / GroupSize * GroupSize;
  parallelFor(Range<1, 1>(Range<1>(padded), Range<1>(GroupSize)),
              [=](Index<1, 1> i) __device(hpp) {
                const int segment = int(i.getX() / TPS);
                const int rank = int(i.getX() % TPS);
                float v = 0.0f;
                if (segment < segments)
                  for (int k = offsets[segment] + rank;
                       k < offsets[segment + 1]; k += TPS)
                    v += values[k];
                // Reduce within each group of TPS lanes.
                for (int o = TPS / 2; o > 0; o /= 2)
                  v += __shfl_down_sync(~0ull, v, o, TPS);
                if (rank == 0 && segment < segments)
                  sums[segment] = v;
              });
}

/// Picks the threads per segment from the average segment length.
void sumSegments(Pointer<int> offsets, Pointer<float> values,
                 Pointer<float> sums, int segments, int averageLength) {
  if (averageLength >= MVECTOR_SIZE / 2) {
    segmentedSum<MVECTOR_SIZE>(offsets, values, sums, segments);
  } else {
    segmentedSum<MVECTOR_SIZE / 4>(offsets, values, sums, segments);
  }
}

int main(int argc, char **argv) {
  int segments = argc > 1 ? std::atoi(argv[1]) : 1000;
  int maxLength = argc > 2 ? std::atoi(argv[2]) : 100;
  if (segments <= 0 || maxLength <= 0) {
    std::fprintf(stderr, "usage: segmented_reduce [segments [max-length]]\n");
    return 2;
  }

  // Segment lengths 0 .. maxLength - 1, values small integers: every sum is
  // exact in float whatever the order of additions.
  Pointer<int> offsets = allocate<int>(segments + 1);
  offsets[0] = 0;
  for (int s = 0; s < segments; ++s)
    offsets[s + 1] = offsets[s] + (s * 7919 % maxLength);
  const int total = offsets[segments];
  Pointer<float> values = allocate<float>(total > 0 ? total : 1);
  for (int k = 0; k < total; ++k)
    values[k] = static_cast<float>(k % 11 - 5);
  Pointer<float> sums = allocate<float>(segments);

  sumSegments(offsets, values, sums, segments, total / segments);

  // Plain C++ reference.
  double checksum = 0;
  for (int s = 0; s < segments; ++s) {
    float expected = 0.0f;
    for (int k = offsets[s]; k < offsets[s + 1]; ++k)
      expected += values[k];
    if (sums[s] != expected) {
      std::printf("segmented_reduce: segment %d: got %g, expected %g\n", s,
                  double(sums[s]), double(expected));
      return 1;
    }
    checksum += double(expected) * (s % 3 + 1);
  }
  std::printf("segmented_reduce segments=%d total=%d checksum=%.0f verified\n",
              segments, total, checksum);
  deallocate(offsets);
  deallocate(values);
  deallocate(sums);
  return 0;
}
