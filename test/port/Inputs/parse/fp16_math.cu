// Half precision: conversions, the __h intrinsics, __half2 packed math,
// operators, shuffles of halves and atomicAdd on __half2.
#include <cstdio>
#include <cuda_fp16.h>

__global__ void halfAxpy(int n, __half a, const __half *x, __half *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hadd(__hmul(a, x[i]), y[i]);
}

__global__ void half2Dot(int n2, const __half2 *x, const __half2 *y,
                         float *result, __half2 *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 sum = __float2half2_rn(0.0f);
  if (i < n2)
    sum = __hfma2(x[i], y[i], sum);
  for (int offset = 16; offset > 0; offset >>= 1)
    sum = __hadd2(sum, __shfl_down_sync(0xffffffffu, sum, offset));
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(result, __low2float(sum) + __high2float(sum));
    atomicAdd(acc, sum);
  }
}

__device__ __half clampedRelu(__half v, __half limit) {
  __half zero = __float2half(0.0f);
  __half r = __hmax(v, zero);
  r = __hlt(r, limit) ? r : limit;
  r = hsqrt(r * r) + __hneg(-r) - __habs(r);
  r += CUDART_ONE_FP16;
  return r > limit ? limit : r;
}

__global__ void convert(const float *in, __half *out, float *back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half h = __float2half_rn(in[i]);
    h = clampedRelu(h, __float2half(6.0f));
    out[i] = h;
    back[i] = __half2float(h) + static_cast<float>(__ldg(&out[0]));
    __half2 pair = __halves2half2(h, __float2half(1.0f));
    float2 f = __half22float2(__hmul2(pair, pair));
    back[i] += f.x + f.y;
  }
}

int main() {
  __half h = __float2half(3.5f);
  printf("%f\n", __half2float(h));
  __half *x, *y;
  cudaMalloc(&x, 1024 * sizeof(__half));
  cudaMalloc(&y, 1024 * sizeof(__half));
  halfAxpy<<<4, 256>>>(1024, __float2half(2.0f), x, y);
  cudaDeviceSynchronize();
  return 0;
}
