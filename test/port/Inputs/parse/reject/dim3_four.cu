// dim3 has three dimensions.
#include <cuda_runtime.h>

__global__ void k() {}

int main() {
  dim3 grid(1, 2, 3, 4);
  k<<<grid, 1>>>();
  return 0;
}
// CHECK: dim3_four.cu:7:8: error: no matching constructor for initialization of 'dim3'
// NVCC: dim3_four.cu(7): error: no instance of constructor "dim3::dim3" matches the argument list
