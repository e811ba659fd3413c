// A helper that reads the real width, for conflict-a.cpp and
// conflict-b.cpp (project-headers.test).
#pragma once
#include <hpp/hpp.h>

__device(hpp) inline int lanes() { return warpSize; }
