// A misspelled warp intrinsic.
#include <cuda_runtime.h>

__global__ void k(float *x) {
  x[threadIdx.x] += __shfl_down_snyc(0xffffffff, x[threadIdx.x], 1);
}

int main() {
  k<<<1, 32>>>(nullptr);
  return 0;
}
// CHECK: misspelled_intrinsic.cu:5:21: error: use of undeclared identifier '__shfl_down_snyc'
// NVCC: misspelled_intrinsic.cu(5): error: identifier "__shfl_down_snyc" is undefined
