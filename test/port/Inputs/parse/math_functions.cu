// The math library in device code: single- and double-precision functions,
// CUDA-only ones (rsqrtf, erfinvf, norm3df, ...), fast intrinsics, std::
// forms, min and max, and math_constants.h.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <math_constants.h>

__device__ float gelu(float x) {
  return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}

__global__ void activations(const float *in, float *out, double *dout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  float s = 1.0f / (1.0f + expf(-x));
  float y = gelu(x) + s + logf(fabsf(x) + 1.0f) + sqrtf(fmaxf(x, 0.0f)) +
            fminf(x, 6.0f) + powf(x, 2.0f) + exp2f(x) + log2f(x + 2.0f) +
            erff(x) + erfcf(x) + sinf(x) * cosf(x) + floorf(x) + ceilf(x) +
            roundf(x) + truncf(x) + fmodf(x, 3.0f) + atan2f(x, 1.0f) +
            hypotf(x, 2.0f) + cbrtf(x) + log1pf(fabsf(x)) + expm1f(x) +
            copysignf(1.0f, x) + fmaf(x, x, 1.0f) + ldexpf(x, 2);
  y += rsqrtf(x * x + 1.0f) + erfinvf(0.5f) + normcdff(x) + norm3df(x, x, x) +
       sinpif(x) + rcbrtf(x + 9.0f);
  y += __expf(x) + __logf(x + 2.0f) + __fdividef(x, 3.0f) + __sinf(x) +
       __cosf(x) + __powf(2.0f, x) + __saturatef(x) + __fmaf_rn(x, x, x) +
       __frcp_rn(x + 1.0f) + __fsqrt_rn(fabsf(x));
  float sn, cs;
  sincosf(x, &sn, &cs);
  __sincosf(x, &sn, &cs);
  y += sn + cs + CUDART_PI_F + CUDART_INF_F * 0.0f;
  y += std::exp(x) + std::sqrt(x) + std::abs(x) + max(x, 0.0f) +
       min(x, 1.0f) + sqrt(x) + exp(x) + fabs(x);
  if (isnan(y) || isinf(y) || !std::isfinite(y))
    y = 0.0f;
  out[i] = y + min(i, 10) + max(i, 3) + abs(i - 5) + umin(i, 4u);
  double d = x;
  dout[i] = exp(d) + log(d + 2.0) + sqrt(fabs(d)) + pow(d, 3.0) + tanh(d) +
            rsqrt(d * d + 1.0) + std::sqrt(d) + std::exp(d) + std::fabs(d) +
            fmax(d, 0.0) + CUDART_PI + __dmul_rn(d, d) + __fma_rn(d, d, d);
}

int main() {
  float host = fmaxf(1.0f, 2.0f) + min(3, 4) + max(1.5f, 2.5f) + sqrtf(2.0f);
  printf("%f\n", host);
  float *in, *out;
  double *d;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  cudaMalloc(&d, 256 * sizeof(double));
  activations<<<1, 256>>>(in, out, d, 256);
  cudaDeviceSynchronize();
  return 0;
}
