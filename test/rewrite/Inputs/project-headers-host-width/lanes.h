// A plain inline function that reads the width (project-headers-host-width.test):
// device code in k.cpp, which calls it from a kernel; host code, unused, in
// main.cpp.
#pragma once
#include <hpp/hpp.h>

inline int laneId(int id) { return id % warpSize; }
