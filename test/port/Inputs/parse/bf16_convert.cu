// bfloat16: conversions from and to float, arithmetic through the
// intrinsics and the operators, packed pairs, and bf16 shuffles.
#include <cstdio>
#include <cuda_bf16.h>

__global__ void bf16Scale(const float *in, __nv_bfloat16 *out, float *back,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __nv_bfloat16 x = __float2bfloat16(in[i]);
  __nv_bfloat16 two = __float2bfloat16_rn(2.0f);
  __nv_bfloat16 y = __hmul(x, two) + __hadd(x, two);
  y = __hfma(y, two, x);
  y = __shfl_xor_sync(0xffffffffu, y, 1);
  out[i] = y;
  __nv_bfloat162 pair = __floats2bfloat162_rn(in[i], 1.0f);
  pair = __hmul2(pair, pair);
  back[i] = __bfloat162float(y) + __low2float(pair) + __high2float(pair);
}

int main() {
  nv_bfloat16 h = __float2bfloat16(1.25f);
  printf("%f\n", __bfloat162float(h));
  float *in, *back;
  __nv_bfloat16 *out;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&back, 256 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(__nv_bfloat16));
  bf16Scale<<<1, 256>>>(in, out, back, 256);
  cudaDeviceSynchronize();
  return 0;
}
