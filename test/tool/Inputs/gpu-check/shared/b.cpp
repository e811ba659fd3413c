// The other source (gpu-check.test): uses shared.h too, and holds main.
#include <cstdio>

#include "shared.h"

__global__ void kernelB(int *P) { P[1] = twice(P[1]); }

int main() {
  std::printf("%d\n", twice(2));
  return 0;
}
