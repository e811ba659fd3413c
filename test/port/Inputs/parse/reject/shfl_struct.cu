// __shfl_sync has no overload for a struct.
#include <cuda_runtime.h>

struct Pair {
  int a, b;
};

__global__ void k(Pair *p) {
  p[threadIdx.x] = __shfl_sync(0xffffffff, p[threadIdx.x], 0);
}

int main() {
  k<<<1, 32>>>(nullptr);
  return 0;
}
// CHECK: shfl_struct.cu:9:20: error: no matching function for call to '__shfl_sync'
// NVCC: shfl_struct.cu(9): error: no instance of overloaded function "__shfl_sync" matches the argument list
