//===- examples/atomic_increment.cpp - Atomic counter and float sums ------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The HPP paper's atomic counter: every work-item increments one
/// Atomic<int> in device memory. Each work-item also adds its value to a
/// float total with atomicAdd on a Pointer<float>, and counts it in a float
/// histogram with atomicAdd on an element's address. The values are small
/// integers, so the float sums are exact in any order. n (default 100000)
/// is not a multiple of the work-group size: trailing work-items must not
/// count.
///
/// Usage: atomic_increment [n]
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace hpp;

/// Number of histogram bins (and of distinct values).
constexpr int Bins = 10;

void countAndSum(Pointer<Atomic<int>> counter, Pointer<float> total,
                 Pointer<float> histogram, Pointer<int> values, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int v = values[i.getX()];
    counter[0].add(1);
    atomicAdd(total, static_cast<float>(v));
    atomicAdd(&histogram[v], 1.0f);
  });
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  if (n <= 0 || n > (1 << 20)) {
    std::fprintf(stderr, "usage: atomic_increment [n], 0 < n <= 2^20\n");
    return 2;
  }

  Pointer<Atomic<int>> counter = allocate<Atomic<int>>(1);
  Pointer<float> total = allocate<float>(1);
  Pointer<float> histogram = allocate<float>(Bins);
  Pointer<int> values = allocate<int>(n);
  for (int e = 0; e < n; ++e)
    values[e] = (e * 7 + e / 3) % Bins;

  countAndSum(counter, total, histogram, values, n);

  long long expectedTotal = 0;
  std::vector<long long> expectedHistogram(Bins, 0);
  for (int e = 0; e < n; ++e) {
    expectedTotal += values[e];
    ++expectedHistogram[values[e]];
  }

  int count = counter[0].load();
  int status = 0;
  if (count != n) {
    std::printf("atomic_increment n=%d count=%d, expected %d\n", n, count, n);
    status = 1;
  }
  if (static_cast<long long>(total[0]) != expectedTotal) {
    std::printf("atomic_increment n=%d sum=%.9g, expected %lld\n", n, total[0],
                expectedTotal);
    status = 1;
  }
  for (int bin = 0; bin < Bins; ++bin)
    if (static_cast<long long>(histogram[bin]) != expectedHistogram[bin]) {
      std::printf("atomic_increment n=%d histogram[%d]=%.9g, expected %lld\n",
                  n, bin, histogram[bin], expectedHistogram[bin]);
      status = 1;
    }
  if (status == 0)
    std::printf("atomic_increment n=%d count=%d sum=%lld verified\n", n, count,
                expectedTotal);

  deallocate(counter);
  deallocate(total);
  deallocate(histogram);
  deallocate(values);
  return status;
}
