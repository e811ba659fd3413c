// A macro defined before an include configures what follows: gpu-check
// compiles this file on its own, never in a batch.
#define WIDTH 64
#include <cstdio>

__global__ void kernel(int *P) { P[0] = WIDTH; }

int main() { return 0; }
