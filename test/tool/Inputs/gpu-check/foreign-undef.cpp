// An #undef of a macro the file did not define would reach the files after
// it in a batch: gpu-check compiles this file on its own.
#include <cstdio>

#undef EOF
__global__ void kernel(int *P) { P[0] = 1; }

int main() { return 0; }
