// A macro the file defines and undefines itself, after its includes, stays
// inside the file: gpu-check compiles it in a batch.
#include <cstdio>

#define SCALE 2
__global__ void kernel(int *P) { P[0] *= SCALE; }
#undef SCALE
#define SCALE 3
__global__ void other(int *P) { P[0] *= SCALE; }
#undef SCALE

int main() { return 0; }
