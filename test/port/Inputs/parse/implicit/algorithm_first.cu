// <algorithm> before <cuda_runtime.h>: clang's CUDA wrapper of <algorithm>
// declares host and device std::min and std::max with the __host__ and
// __device__ macros, which only <cuda_runtime.h> defines; nvcc (and the
// parse with -include cuda_runtime.h) has them defined already.
#include <algorithm>
#include <cuda_runtime.h>
#include <vector>

__global__ void clampAll(float *x, int n, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fminf(x[i], hi);
}

int main() {
  std::vector<float> h(256, 2.0f);
  float *d = nullptr;
  cudaMalloc(&d, h.size() * sizeof(float));
  cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  clampAll<<<1, 256>>>(d, 256, 1.0f);
  cudaMemcpy(h.data(), d, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
  return *std::max_element(h.begin(), h.end()) > 1.0f;
}
// CHECK: algorithm:{{[0-9]+}}:{{[0-9]+}}: error: unknown type name '__host__'
