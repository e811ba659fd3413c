// Atomics on every type CUDA overloads them for, the block and system
// scopes, and a compare-and-swap loop that builds a float maximum.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float atomicMaxFloat(float *address, float val) {
  int *addressAsInt = (int *)address;
  int old = *addressAsInt, assumed;
  do {
    assumed = old;
    old = atomicCAS(addressAsInt, assumed,
                    __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__device__ double atomicAddDoubleCas(double *address, double val) {
  unsigned long long *p = (unsigned long long *)address;
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed,
                    __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

struct Counters {
  int i;
  unsigned u;
  unsigned long long ull;
  long long ll;
  float f;
  double d;
};

__global__ void histogram(const unsigned char *in, unsigned *bins, int n,
                          Counters *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&bins[in[i]], 1u);
  atomicAdd(&c->i, 1);
  atomicAdd(&c->ull, 1ull);
  atomicAdd(&c->f, 0.5f);
  atomicAdd(&c->d, 0.25);
  atomicSub(&c->i, 1);
  atomicSub(&c->u, 1u);
  atomicMax(&c->i, i);
  atomicMin(&c->u, (unsigned)i);
  atomicMax(&c->ll, (long long)i);
  atomicMin(&c->ull, (unsigned long long)i);
  atomicExch(&c->f, 1.0f);
  atomicExch(&c->ull, 2ull);
  atomicInc(&c->u, 100u);
  atomicDec(&c->u, 100u);
  atomicAnd(&c->i, 0xff);
  atomicOr(&c->u, 1u << 3);
  atomicXor(&c->ull, 0x5555ull);
  atomicAdd_block(&c->f, 1.0f);
  atomicAdd_system(&c->d, 1.0);
  atomicCAS_block(&c->i, 0, 1);
  atomicExch_system(&c->u, 7u);
  atomicMaxFloat(&c->f, 3.0f);
  atomicAddDoubleCas(&c->d, 1.0);
}

int main() {
  unsigned char *in;
  unsigned *bins;
  Counters *c;
  cudaMalloc(&in, 1 << 16);
  cudaMalloc(&bins, 256 * sizeof(unsigned));
  cudaMalloc(&c, sizeof(Counters));
  cudaMemset(bins, 0, 256 * sizeof(unsigned));
  histogram<<<256, 256>>>(in, bins, 1 << 16, c);
  Counters h;
  cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %f\n", h.i, h.d);
  return 0;
}
