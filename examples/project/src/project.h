//===- src/project.h - What the sources offer main.cpp --------*- C++ -*-===//
//
// Part of hpp-rewrite: examples/project (README.md).
//
//===----------------------------------------------------------------------===//
#ifndef PROJ_SRC_PROJECT_H
#define PROJ_SRC_PROJECT_H

#include <hpp/hpp.h>

/// The sum of in[0, n) (reduce.cpp).
float projSum(hpp::Pointer<float> in, int n);
/// p[k] *= by for k in [0, n) (scale.cpp).
void projScale(hpp::Pointer<float> p, int n, float by);
/// The sum of in[0, n), through per-warp slots (stats.cpp).
float projWarpTotal(hpp::Pointer<float> in, int n);

#endif // PROJ_SRC_PROJECT_H
