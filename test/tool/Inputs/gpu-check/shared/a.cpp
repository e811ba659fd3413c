// One source of a program of two (gpu-check.test): uses shared.h.
#include <cstdio>

#include "shared.h"

__global__ void kernelA(int *P) { P[0] = twice(P[0]); }
