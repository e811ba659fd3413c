//===- proj/warp.h - Warp helpers written for 32-lane warps ---*- C++ -*-===//
//
// Part of hpp-rewrite: examples/project (README.md).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A warp sum written the CUDA way (offsets from 16 down, a full 32-bit
/// mask): its 32-lane fact is here, in a header. Every kernel that calls
/// it keeps 32-lane warps (two per 64-lane wavefront), and, because the
/// warp is one thing in a program, so does every kernel of the project
/// that uses the real width (src/stats.cpp): docs/width-model.md.
/// Includes math.h (a header included by headers).
///
//===----------------------------------------------------------------------===//
#ifndef PROJ_WARP_H
#define PROJ_WARP_H

#include <hpp/hpp.h>

#include "math.h"

/// The sum of \p v over the caller's 32-lane warp, in every lane.
__device(hpp) inline float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

#endif // PROJ_WARP_H
