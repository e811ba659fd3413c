//===- src/stats.cpp - Per-warp partial sums by warpSize ------------------===//
//
// Part of hpp-rewrite: examples/project (README.md).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// projWarpTotal: every work-item adds its value to its warp's slot
/// (slot x / warpSize), then the slots are summed. The kernel uses the
/// real width and has no 32-lane fact of its own; the warp is one thing in
/// a program, so it keeps 32-lane warps like reduce.cpp's kernel (the
/// rewrite says so with a remark). Its total is the same at any width.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include "proj/config.h"
#include "proj/math.h"

#include "project.h"

using namespace hpp;

float projWarpTotal(Pointer<float> in, int n) {
  // One slot per warp at the narrowest warp there is: enough at any width.
  Pointer<float> slots = allocate<float>(n);
  for (int s = 0; s < n; ++s)
    slots[s] = 0.0f;
  int groups = (n + PROJ_GROUP - 1) / PROJ_GROUP;
  parallelFor(Range<1, 1>(Range<1>(groups * PROJ_GROUP), Range<1>(PROJ_GROUP)),
              [=](Index<1, 1> i) __device(hpp) {
                int k = static_cast<int>(i.getX());
                if (k < n)
                  atomicAdd(&slots[k / warpSize], scaled(in[k], 1.0f));
              });
  float total = 0.0f;
  for (int s = 0; s < n; ++s)
    total += slots[s];
  return total;
}
