// Integer, bit and conversion intrinsics, clocks, fences and the reducing
// barriers.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void bits(const unsigned *in, unsigned long long *out,
                     long long *cycles) {
  long long start = clock64();
  clock_t t0 = clock();
  unsigned x = in[threadIdx.x];
  unsigned long long wide = ((unsigned long long)x << 32) | x;
  int r = __popc(x) + __popcll(wide) + __clz((int)x) + __clzll((long long)wide) +
          __ffs((int)x) + __ffsll((long long)wide);
  unsigned b = __brev(x) ^ __byte_perm(x, 0, 0x0123) ^
               __funnelshift_l(x, x, 8) ^ __funnelshift_r(x, x, 4);
  unsigned long long bw = __brevll(wide);
  int m = __mul24((int)x, 3) + __mulhi((int)x, 7) + __hadd((int)x, 1);
  unsigned u = __umul24(x, 5u) + __umulhi(x, 9u) + __sad((int)x, 3, 1u) +
               __usad(x, 4u, 2u);
  float f = __int_as_float((int)x) + __uint_as_float(x);
  int fi = __float_as_int(f) + (int)__float_as_uint(f);
  double d = __longlong_as_double((long long)wide);
  long long di = __double_as_longlong(d);
  int conv = __float2int_rn(f) + (int)__float2uint_rz(f) +
             __double2int_rz(d) + (int)__float2ll_rd(f);
  float back = __int2float_rn(conv) + __double2float_rn(d) +
               __uint2float_rz(u) + __ll2float_rn(di);
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  int count = __syncthreads_count(x > 10);
  int all = __syncthreads_and(x != 0);
  int any = __syncthreads_or(x == 7);
  __nanosleep(100);
  out[threadIdx.x] = r + b + bw + m + u + fi + conv + (unsigned long long)back +
                     count + all + any;
  cycles[threadIdx.x] = clock64() - start + (long long)(clock() - t0);
}

int main() {
  unsigned *in;
  unsigned long long *out;
  long long *cycles;
  cudaMalloc(&in, 128 * sizeof(unsigned));
  cudaMalloc(&out, 128 * sizeof(unsigned long long));
  cudaMalloc(&cycles, 128 * sizeof(long long));
  bits<<<1, 128>>>(in, out, cycles);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
