// The host interface of the kernels, for the C++ sources.
#pragma once
#include <cuda_runtime.h>

void launchRowSums(const float *m, float *out, int rows, int cols,
                   cudaStream_t s);
void launchTotal(const float *in, float *total, int n);
