// A CUDA source that includes no CUDA header (nvcc includes cuda_runtime.h
// by itself): its port gets <hpp/cuda_api.h>.
__global__ void k(int *p) { p[threadIdx.x] = 1; }
int main() {
  int *p = nullptr;
  cudaMalloc(&p, 4);
  k<<<1, 1>>>(p);
  return 0;
}
