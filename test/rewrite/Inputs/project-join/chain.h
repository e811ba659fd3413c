// Warp helpers that call each other, for first.cpp and second.cpp
// (test/rewrite/project-headers-join.test): xorStep is warp code that both
// sources' kernels reach, first.cpp's directly, second.cpp's through
// sumWarp.
#pragma once
#include <hpp/hpp.h>

template <typename T> inline T xorStep(T v, int o) { return __shfl_xor_sync(0xffffffffu, v, o); }
inline int sumWarp(int v) {
  for (int o = 1; o < warpSize; o *= 2)
    v += xorStep(v, o);
  return v;
}
