//===- src/reduce.cpp - A sum through the header's warp helper ------------===//
//
// Part of hpp-rewrite: examples/project (README.md).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// projSum: each 32-lane warp sums its values with proj/warp.h's warpSum,
/// and its first lane adds the warp's sum to the total.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include "proj/config.h"
#include "proj/warp.h"

#include "project.h"

using namespace hpp;

float projSum(Pointer<float> in, int n) {
  Pointer<float> total = allocate<float>(1);
  total[0] = 0.0f;
  int groups = (n + PROJ_GROUP - 1) / PROJ_GROUP;
  parallelFor(Range<1, 1>(Range<1>(groups * PROJ_GROUP), Range<1>(PROJ_GROUP)),
              [=](Index<1, 1> i) __device(hpp) {
                int k = static_cast<int>(i.getX());
                float v = warpSum(k < n ? in[k] : 0.0f);
                if ((static_cast<int>(i.getLocalX()) & 31) == 0)
                  atomicAdd(total, v);
              });
  return total[0];
}
