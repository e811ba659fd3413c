// A project header that declares a name the CUDA and HIP headers declare
// (reserved-name-header.cpp).
#pragma once

struct int2 {
  int x, y;
};
