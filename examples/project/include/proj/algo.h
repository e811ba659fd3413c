//===- proj/algo.h - A template algorithm that launches ------*- C++ -*-===//
//
// Part of hpp-rewrite: examples/project (README.md).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// mapInPlace applies a functor to every element: a function template in a
/// header that launches a parallelFor. The rewrite outlines its kernel
/// into this header, a kernel template every source that calls it shares.
///
//===----------------------------------------------------------------------===//
#ifndef PROJ_ALGO_H
#define PROJ_ALGO_H

#include <hpp/hpp.h>

#include "config.h"
#include "math.h"

namespace proj {

/// p[k] = f(p[k]) for k in [0, n).
template <typename T, typename F>
void mapInPlace(hpp::Pointer<T> p, int n, F f) {
  int groups = (n + PROJ_GROUP - 1) / PROJ_GROUP;
  hpp::parallelFor(
      hpp::Range<1, 1>(hpp::Range<1>(groups * PROJ_GROUP),
                       hpp::Range<1>(PROJ_GROUP)),
      [=](hpp::Index<1, 1> i) __device(hpp) {
        int k = static_cast<int>(i.getX());
        if (k < n)
          p[k] = f(p[k]);
      });
}

/// Multiplies by a factor (math.h's scaled), in device code.
struct Scale {
  float By;
  __device(hpp) float operator()(float x) const { return scaled(x, By); }
};

} // namespace proj

#endif // PROJ_ALGO_H
