// cudaMemcpy without its cudaMemcpyKind: no overload takes three arguments.
#include <cuda_runtime.h>

int main() {
  float host[16], *dev = nullptr;
  cudaMalloc(&dev, sizeof(host));
  cudaMemcpy(dev, host, sizeof(host));
  return 0;
}
// CHECK: wrong_overload.cu:7:3: error: no matching function for call to 'cudaMemcpy'
// NVCC: wrong_overload.cu(7): error: too few arguments in function call
