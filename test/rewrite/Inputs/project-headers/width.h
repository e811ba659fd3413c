// A helper whose width its calling kernel decides (project-headers.test).
#pragma once
#include <hpp/hpp.h>

__device(hpp) inline int width() { return MVECTOR_SIZE; }
