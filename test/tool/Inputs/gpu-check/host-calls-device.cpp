// A file gpu-check rejects: host code calls a __device__ function, which
// the CPU compilers accept and nvcc and hipcc do not.
#include <cstdio>

__device__ int onDevice() { return 1; }

int main() {
  std::printf("%d\n", onDevice());
  return 0;
}
