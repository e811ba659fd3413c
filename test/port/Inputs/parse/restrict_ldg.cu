// __restrict__ pointers, __launch_bounds__ with one and two arguments,
// loads through the read-only cache (__ldg) of scalars and vectors, and
// vectorized float4 accesses built with make_float4.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void __launch_bounds__(THREADS, 2)
    stencil(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = 0.25f * __ldg(&in[i - 1]) + 0.5f * __ldg(in + i) +
             0.25f * __ldg(&in[i + 1]);
}

__global__ void __launch_bounds__(128)
    vec4Copy(const float4 *__restrict__ src, float4 *__restrict__ dst,
             const int2 *__restrict__ idx, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = __ldg(&src[i]);
    int2 j = __ldg(&idx[i]);
    dst[i] = make_float4(v.x * 2, v.y * 2, v.z * 2, v.w + j.x + j.y);
  }
}

__global__ void scalarsThroughVectors(const float *__restrict__ a, float *b,
                                      int n) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i + 3 < n) {
    float4 v = reinterpret_cast<const float4 *>(a)[i / 4];
    reinterpret_cast<float4 *>(b)[i / 4] = v;
    double d = __ldg(reinterpret_cast<const double *>(a));
    uint2 u = make_uint2(1, 2);
    b[0] = (float)d + u.x + __ldg(&a[0]);
  }
}

int main() {
  int n = 1 << 20;
  float *a, *b;
  int2 *idx;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&idx, n / 4 * sizeof(int2));
  stencil<<<(n + THREADS - 1) / THREADS, THREADS>>>(a, b, n);
  vec4Copy<<<n / 4 / 128, 128>>>((const float4 *)a, (float4 *)b, idx, n / 4);
  scalarsThroughVectors<<<n / 4 / 256, 256>>>(a, b, n);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
