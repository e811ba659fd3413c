// The second source of a program of two (test/tool/cxx-pch.test): each
// source is compiled with the header precompiled, the objects linked.
#include <hpp/hpp.h>

#include "second.h"

int twice(hpp::Pointer<int> out, int n) {
  hpp::parallelFor(hpp::Range<1>(n), [=](hpp::Index<1> i) __device(hpp) {
    out[i.getX()] = 2 * int(i.getX());
  });
  int sum = 0;
  for (int k = 0; k < n; ++k)
    sum += out[k];
  return sum;
}
