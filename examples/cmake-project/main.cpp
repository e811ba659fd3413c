//===- main.cpp - Runs saxpy and checks it --------------------------------===//
//
// Part of hpp-rewrite. examples/cmake-project. Prints "saxpy n=N verified"
// and exits 0 when every element is right.
//
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include "saxpy.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace hpp;

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  if (n <= 0) {
    std::fprintf(stderr, "usage: saxpy [n > 0]\n");
    return 2;
  }
  Pointer<float> x = allocate<float>(n), y = allocate<float>(n);
  for (int e = 0; e < n; ++e) {
    x[e] = float(e % 100);
    y[e] = 1.0f;
  }
  saxpy(2.0f, x, y, n);
  int bad = 0;
  for (int e = 0; e < n; ++e)
    if (!(std::fabs(y[e] - (2.0f * float(e % 100) + 1.0f)) <= 1e-6f))
      ++bad;
  std::printf("saxpy n=%d %s\n", n, bad ? "FAILED" : "verified");
  deallocate(x);
  deallocate(y);
  return bad ? 1 : 0;
}
