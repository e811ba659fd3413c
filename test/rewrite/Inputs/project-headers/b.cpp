// The other source: a kernel calls plusOne(), host code twice().
#include <hpp/hpp.h>

#include "algo.h"
#include "helpers.h"

#include <cstdio>

using namespace hpp;

void scale(Pointer<float> p, Pointer<int> lane, int n);
void fillAndDouble(Pointer<float> p, int n);

int main() {
  const int N = 256;
  Pointer<float> p = allocate<float>(N);
  Pointer<int> lane = allocate<int>(N);
  for (int e = 0; e < N; ++e)
    p[e] = float(e);
  scale(p, lane, N);
  parallelFor(Range<1>(N), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = plusOne(p[i.getX()]);
  });
  int Wrong = 0, Lanes = 0;
  for (int e = 0; e < N; ++e) {
    Wrong += !(p[e] == twice(float(e)) + 1.0f);
    Lanes += lane[e];
  }
  std::printf("wrong %d, lanes right %d of %d\n", Wrong, Lanes, N);
  // The header's kernels, from this source and from a.cpp.
  Pointer<float> q = allocate<float>(N);
  fill(q, N, 1.5f);
  transform(q, N, Twice());
  fillAndDouble(q, N / 2);
  float Sum = 0;
  for (int e = 0; e < N; ++e)
    Sum += q[e];
  std::printf("sum %g\n", Sum);
  return Wrong != 0;
}
