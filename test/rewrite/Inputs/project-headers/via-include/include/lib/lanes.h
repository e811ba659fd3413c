// A project header found through the include path (-I include).
#pragma once
#include <hpp/hpp.h>

/// 1 when the lane's mvector is as wide as the device's warp.
__device(hpp) inline int fullWidth(int localSize) {
  return localSize == warpSize;
}
