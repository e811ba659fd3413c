// Port mode: every way CUDA writes a launch becomes hpp::launchCuda, with
// the shared bytes and the stream CUDA defaults written out, the kernel's
// deduced template arguments named, and the arguments as written (they
// convert to the kernel's parameters where the call is, as <<<>>>'s do).
// RUN: %hpp_rewrite --port %s -- > %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// QUIET-NOT: [hpp-
// CHECK: #include <hpp/cuda_api.h>

#include <cstdio>

template <class T, int Block> __global__ void fill(T *p, int n, T v) {
  int i = blockIdx.x * Block + threadIdx.x;
  if (i < n)
    p[i] = v;
}

__global__ void plain(float *p, float v) { p[threadIdx.x] = v; }

template <class T> __global__ void deduced(T *p) { p[threadIdx.x] = T(1); }

#define GRID(n) (((n) + 127) / 128)

template <class T> void twice(T *p, int n, cudaStream_t s) {
  fill<T, 128><<<GRID(n), 128, 0, s>>>(p, n, T(2));
  // CHECK: hpp::launchCuda(fill<T, 128>, GRID(n), 128, 0, s, p, n, T(2));
}

int main() {
  float *p = nullptr;
  cudaStream_t s = nullptr;
  int n = 1000;
  plain<<<1, 32>>>(p, 1);
  // CHECK: hpp::launchCuda(plain, 1, 32, 0, 0, p, 1);
  plain<<<dim3(2, 1), dim3(64), 128>>>(p, 2.5f);
  // CHECK: hpp::launchCuda(plain, dim3(2, 1), dim3(64), 128, 0, p, 2.5f);
  plain<<<1, 32, 0, s>>>(NULL, 0);
  // CHECK: hpp::launchCuda(plain, 1, 32, 0, s, NULL, 0);
  plain <<< 4 , 32 >>> ( nullptr , 3 );
  // CHECK: hpp::launchCuda(plain , 4 , 32 , 0, 0, nullptr , 3 );
  fill<float, 128><<<GRID(n), 128>>>(p, n, 1.0f);
  // CHECK: hpp::launchCuda(fill<float, 128>, GRID(n), 128, 0, 0, p, n, 1.0f);
  deduced<<<1, 32>>>(p);
  // CHECK: hpp::launchCuda(deduced<float>, 1, 32, 0, 0, p);
  twice(p, n, s);
  std::printf("done\n");
}
