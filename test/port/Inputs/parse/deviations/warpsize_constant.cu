// warpSize as a constant expression: clang's built-in variables (which the
// declarations use, from clang's resource directory) declare it
// `const int warpSize = 32`, so an array sized by it parses; nvcc's
// warpSize is not a constant, and it rejects the array.
#include <cuda_runtime.h>

__global__ void perLane(float *out) {
  __shared__ float lanes[warpSize];
  lanes[threadIdx.x % warpSize] = (float)threadIdx.x;
  __syncwarp();
  out[threadIdx.x] = lanes[(threadIdx.x + 1) % warpSize];
}

int main() {
  perLane<<<1, 32>>>(nullptr);
  return 0;
}
// NVCC: warpsize_constant.cu(8): error: a variable length array cannot have static storage duration
