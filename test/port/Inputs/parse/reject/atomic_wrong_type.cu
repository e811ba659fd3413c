// CUDA has no atomicSub on float (only int and unsigned int).
#include <cuda_runtime.h>

__global__ void k(float *x) { atomicSub(x, 1.0f); }

int main() {
  k<<<1, 1>>>(nullptr);
  return 0;
}
// CHECK: atomic_wrong_type.cu:4:31: error: no matching function for call to 'atomicSub'
// NVCC: atomic_wrong_type.cu(4): error: no instance of overloaded function "atomicSub" matches the argument list
