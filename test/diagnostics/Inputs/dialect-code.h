// A project header with dialect code (project-headers.cpp).
#pragma once
inline int square(int x) __device(hpp) { return x * x; }
