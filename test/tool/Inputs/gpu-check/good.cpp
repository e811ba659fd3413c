// A file gpu-check compiles: device code called from a kernel.
#include <cstdio>

__device__ int twice(int X) { return 2 * X; }
__global__ void kernel(int *P) { P[0] = twice(P[0]); }

int main() {
  std::printf("good\n");
  return 0;
}
