// Port mode: a kernel's dynamic shared array (`extern __shared__ T a[];`)
// becomes a pointer to the launch's shared bytes, however it is declared
// (an alignment, a template's element type, `volatile`, an array of
// arrays), and its uses stay as written. The port runs on the CPU backend at
// 32 and 64 lanes (with the uninitialised-shared-memory check) and compiles
// for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite --port %s -o %t.cpp --
// RUN: FileCheck %s < %t.cpp
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp

#include <cstdio>

template <class T> __global__ void reverse(const T *in, T *out, int n) {
  extern __shared__ T stage[];
  // CHECK: T *const stage = hpp::dynamicShared<T>();
  int i = threadIdx.x;
  if (i < n)
    stage[i] = in[blockIdx.x * n + i];
  __syncthreads();
  if (i < n)
    out[blockIdx.x * n + i] = stage[n - 1 - i];
}

__global__ void bytes(int *out) {
  extern __shared__ __align__(16) unsigned char smem[];
  // CHECK: unsigned char *const smem = hpp::dynamicShared<unsigned char>();
  float *f = reinterpret_cast<float *>(smem);
  f[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = int(f[blockDim.x - 1 - threadIdx.x]);
}

__global__ void rows(int *out) {
  extern volatile __shared__ int grid[][4];
  // CHECK: auto *const grid = hpp::dynamicShared<volatile int[4]>();
  grid[threadIdx.x / 4][threadIdx.x % 4] = int(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = grid[threadIdx.x % 4][threadIdx.x / 4];
}

// A `static __shared__` variable is shared memory all the same; the output
// drops the `static` (the CPU backend's `__shared__` says it already).
template <class T> __global__ void staticShared(T *out) {
  static __shared__ T partial[32];
  // CHECK: {{^}}  __shared__ T partial[32];
  __shared__ static int count;
  // CHECK: {{^}}  __shared__ int count;
  partial[threadIdx.x] = T(threadIdx.x);
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  out[threadIdx.x] = partial[31 - threadIdx.x] + T(count);
}

int main() {
  const int n = 48, blocks = 3;
  int *in, *out;
  cudaMallocManaged(&in, blocks * n * sizeof(int));
  cudaMallocManaged(&out, blocks * n * sizeof(int));
  for (int k = 0; k < blocks * n; ++k)
    in[k] = k;
  int bad = 0;
  reverse<<<blocks, 64, n * sizeof(int)>>>(in, out, n);
  cudaDeviceSynchronize();
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < n; ++i)
      bad += out[b * n + i] != b * n + n - 1 - i;
  bytes<<<1, 40, 40 * sizeof(float)>>>(out);
  cudaDeviceSynchronize();
  for (int k = 0; k < 40; ++k)
    bad += out[k] != 39 - k;
  rows<<<1, 16, 16 * sizeof(int)>>>(out);
  cudaDeviceSynchronize();
  for (int k = 0; k < 16; ++k)
    bad += out[k] != (k % 4) * 4 + k / 4;
  staticShared<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  for (int k = 0; k < 32; ++k)
    bad += out[k] != 31 - k + 32;
  std::printf("errors %d\n", bad);
  // OUT: errors 0
  cudaFree(in);
  cudaFree(out);
}

