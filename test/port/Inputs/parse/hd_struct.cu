// A value type whose members are __host__ __device__ (constructors,
// operators, constexpr helpers) used by kernels and by the host, with
// __forceinline__ and __noinline__ device functions and a functor template.
#include <cstdio>
#include <cuda_runtime.h>

struct Complex {
  float re, im;
  __host__ __device__ Complex() : re(0), im(0) {}
  __host__ __device__ Complex(float r, float i) : re(r), im(i) {}
  __host__ __device__ Complex operator+(const Complex &o) const {
    return Complex(re + o.re, im + o.im);
  }
  __host__ __device__ Complex operator*(const Complex &o) const {
    return Complex(re * o.re - im * o.im, re * o.im + im * o.re);
  }
  __host__ __device__ float norm2() const { return re * re + im * im; }
  static constexpr __host__ __device__ int dims() { return 2; }
};

template <typename T> struct Square {
  __host__ __device__ T operator()(const T &v) const { return v * v; }
};

__device__ __forceinline__ int mandelbrotIterations(Complex c, int maxIter) {
  Complex z;
  int it = 0;
  while (it < maxIter && z.norm2() < 4.0f) {
    z = z * z + c;
    ++it;
  }
  return it;
}

__device__ __noinline__ float slowPath(float x) { return x * Complex::dims(); }

template <typename F>
__global__ void mandelbrot(int *out, int w, int h, int maxIter, F f) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  Complex c(-2.0f + 3.0f * x / w, -1.5f + 3.0f * y / h);
  int it = mandelbrotIterations(c, maxIter);
  out[y * w + x] = f(it) + (int)slowPath((float)it);
}

int main() {
  Complex a(1, 2), b(3, 4);
  Complex c = a * b + Square<Complex>()(a);
  printf("%f %f %d\n", c.re, c.im, Complex::dims());
  const int w = 256, h = 256;
  int *out;
  cudaMalloc(&out, w * h * sizeof(int));
  dim3 block(16, 16);
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  mandelbrot<<<grid, block>>>(out, w, h, 100, Square<int>());
  cudaDeviceSynchronize();
  cudaFree(out);
  return 0;
}
