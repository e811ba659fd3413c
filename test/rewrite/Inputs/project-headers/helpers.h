// Device helpers of the project (project-headers.test): a plain inline
// function and a template, which the rewrite makes __host__ __device__.
#pragma once
#include "sub/lanes.h"

inline float twice(float x) { return 2.0f * x; }

template <typename T> T plusOne(T x) { return x + T(1); }
