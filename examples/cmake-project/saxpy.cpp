//===- saxpy.cpp - y = a*x + y as a parallelFor ---------------------------===//
//
// Part of hpp-rewrite. examples/cmake-project.
//
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include "saxpy.h"
#include "scale.h"

using namespace hpp;

void saxpy(float a, Pointer<float> x, Pointer<float> y, int n) {
  const float Factor = a * ExtraScale;
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    std::size_t e = i.getX();
    y[e] = Factor * x[e] + y[e];
  });
}
