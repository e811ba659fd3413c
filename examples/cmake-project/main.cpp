//===- main.cpp - Runs saxpy and checks it --------------------------------===//
//
// Part of hpp-rewrite. examples/cmake-project. Prints the build's mode as
// the host and a kernel see it, then "saxpy n=N verified", and exits 0
// when the two modes agree and every element is right.
//
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

// Beside this file, found without an include directory.
#include "mode.h"
#include "saxpy.h"
#include "scale.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#ifdef SAXPY_CXX20
#include <span>

/// C++20 (SAXPY_STANDARD=20): the rewrite must parse with the standard the
/// compile uses.
consteval float twice(float X) { return 2 * X; }
static float sum(std::span<const float> Xs) {
  float S = 0;
  for (float X : Xs)
    S += X;
  return S;
}
#else
constexpr float twice(float X) { return 2 * X; }
#endif

using namespace hpp;

/// BuildMode as a kernel sees it: a constant the body reads without
/// capturing it, which the kernel gets with the value the rewrite parsed.
static int kernelMode() {
  [[maybe_unused]] constexpr int Mode = BuildMode; // Unused once outlined.
  Pointer<int> Out = allocate<int>(1);
  parallelFor(Range<1>(1), [=](Index<1>) __device(hpp) { Out[0] = Mode; });
  const int Seen = Out[0];
  deallocate(Out);
  return Seen;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  if (n <= 0) {
    std::fprintf(stderr, "usage: saxpy [n > 0]\n");
    return 2;
  }
  const int Kernel = kernelMode();
  std::printf("mode host=%d kernel=%d\n", BuildMode, Kernel);
  Pointer<float> x = allocate<float>(n), y = allocate<float>(n);
  for (int e = 0; e < n; ++e) {
    x[e] = float(e % 100);
    y[e] = 1.0f;
  }
  saxpy(twice(1.0f), x, y, n);
  int bad = Kernel != BuildMode;
  for (int e = 0; e < n; ++e)
    if (!(std::fabs(y[e] - (2.0f * ExtraScale * float(e % 100) + 1.0f)) <=
          1e-6f))
      ++bad;
#ifdef SAXPY_CXX20
  const float Ones[] = {y[0], y[n - 1]};
  bad += sum(Ones) != y[0] + y[n - 1];
#endif
  std::printf("saxpy n=%d %s\n", n, bad ? "FAILED" : "verified");
  deallocate(x);
  deallocate(y);
  return bad ? 1 : 0;
}
