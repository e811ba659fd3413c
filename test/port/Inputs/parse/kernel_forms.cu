// Kernels in the other shapes real code writes: in a namespace and called
// qualified, a template with an explicit instantiation, a variadic
// template, a kernel taking a struct by value as __grid_constant__, a
// kernel with cluster dimensions, one with all three launch bounds, a launch
// through cudaLaunchKernel with an argument array, and a kernel launched
// from a member function.
#include <cstdio>
#include <cuda_runtime.h>

namespace ops {
__global__ void negate(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = -x[i];
}
} // namespace ops

template <typename T> __global__ void fillWith(T *x, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = value;
}
template __global__ void fillWith<int>(int *, int, int);

template <typename... Args> __global__ void sumArgs(int *out, Args... args) {
  int values[] = {args...};
  int s = 0;
  for (int v : values)
    s += v;
  out[threadIdx.x] = s;
}

struct Params {
  float scale;
  int n;
  float bias[4];
};

__global__ void affine(const __grid_constant__ Params p, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    x[i] = x[i] * p.scale + p.bias[i % 4];
}

__global__ void __cluster_dims__(2, 1, 1) clustered(float *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}

__global__ void __launch_bounds__(128, 4, 2) bounded(float *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}

class Solver {
public:
  explicit Solver(int n) : n_(n) { cudaMalloc(&data_, n * sizeof(float)); }
  ~Solver() { cudaFree(data_); }
  void run(cudaStream_t stream) const {
    ops::negate<<<(n_ + 127) / 128, 128, 0, stream>>>(data_, n_);
    fillWith<<<(n_ + 127) / 128, 128, 0, stream>>>(data_, 1.5f, n_);
  }
  float *data() const { return data_; }

private:
  int n_;
  float *data_ = nullptr;
};

int main() {
  Solver solver(1024);
  solver.run(0);
  int *ints;
  cudaMalloc(&ints, 64 * sizeof(int));
  fillWith<int><<<1, 64>>>(ints, 7, 64);
  sumArgs<<<1, 32>>>(ints, 1, 2, 3);
  Params p = {2.0f, 1024, {0, 1, 2, 3}};
  affine<<<8, 128>>>(p, solver.data());
  clustered<<<8, 128>>>(solver.data());
  bounded<<<8, 128>>>(solver.data());
  float *x = solver.data();
  int n = 1024;
  void *args[] = {&x, &n};
  cudaLaunchKernel((const void *)&ops::negate, dim3(8), dim3(128), args, 0,
                   nullptr);
  cudaLaunchKernel(ops::negate, dim3(8), dim3(128), args);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
