// A helper that reads the real width, for join-a.cpp and join-b.cpp
// (project-headers.test).
#pragma once
#include <hpp/hpp.h>

__device(hpp) inline int lanes() { return warpSize; }
