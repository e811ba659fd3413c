//===- src/main.cpp - Runs the project and checks it ----------------------===//
//
// Part of hpp-rewrite: examples/project (README.md).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Fills n values (proj/math.h's valueAt), scales them by 2 (scale.cpp),
/// adds 1 to each with proj/algo.h's mapInPlace called from here, and sums
/// them twice (reduce.cpp's warp sum, stats.cpp's per-warp slots); checks
/// every value and both sums against plain C++. Prints "verified".
///
/// Usage: project [n]
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include "proj/algo.h"
#include "proj/math.h"

#include "project.h"

#include <cstdio>
#include <cstdlib>

using namespace hpp;

/// Adds one, in device code.
struct AddOne {
  __device(hpp) float operator()(float x) const { return x + 1.0f; }
};

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : PROJ_DEFAULT_N;
  if (n <= 0 || n > (1 << 20)) {
    std::fprintf(stderr, "usage: project [n], 0 < n <= 2^20\n");
    return 2;
  }
  Pointer<float> p = allocate<float>(n);
  for (int k = 0; k < n; ++k)
    p[k] = valueAt(k);
  projScale(p, n, 2.0f);
  proj::mapInPlace(p, n, AddOne());
  const float sum = projSum(p, n);
  const float warpTotal = projWarpTotal(p, n);

  // Plain C++: the values are small integers, the sums exact.
  int wrong = 0;
  double expected = 0;
  for (int k = 0; k < n; ++k) {
    float want = scaled(valueAt(k), 2.0f) + 1.0f;
    wrong += !(p[k] == want);
    expected += want;
  }
  std::printf("project n=%d group=%d: %d wrong values, sum %.0f, "
              "warp total %.0f, expected %.0f\n",
              n, PROJ_GROUP, wrong, sum, warpTotal, expected);
  if (wrong || !(sum == expected) || !(warpTotal == expected)) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("verified\n");
  return 0;
}
