// A project header that includes the dialect header (project-headers.cpp).
#pragma once
#include <hpp/hpp.h>
inline int plusOne(int x) { return x + 1; }
