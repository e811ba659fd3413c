// Warp-level reductions through shuffle intrinsics wrapped in the usual
// FULL_MASK / WARP_SIZE macros, for int, unsigned, long long, float and
// double, with widths and the vote intrinsics.
#include <cstdio>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define WARP_SIZE 32
#define LANE_ID (threadIdx.x & (WARP_SIZE - 1))

template <typename T> __device__ __forceinline__ T warpReduceSum(T val) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(FULL_MASK, val, offset);
  return val;
}

template <typename T> __device__ __forceinline__ T warpAllReduceMax(T val) {
  for (int mask = 16; mask > 0; mask >>= 1)
    val = max(val, __shfl_xor_sync(FULL_MASK, val, mask, WARP_SIZE));
  return val;
}

__global__ void kernel(const float *in, float *out, double *dout, int *iout,
                       unsigned *uout, long long *lout) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  float s = warpReduceSum(v);
  double d = warpReduceSum((double)v);
  int i = warpAllReduceMax((int)v);
  unsigned u = warpReduceSum((unsigned)v);
  long long l = warpReduceSum((long long)v);
  float first = __shfl_sync(FULL_MASK, v, 0);
  float prev = __shfl_up_sync(FULL_MASK, v, 1, 16);
  unsigned ballot = __ballot_sync(FULL_MASK, v > 0.0f);
  int any = __any_sync(__activemask(), v < 0.0f);
  int all = __all_sync(FULL_MASK, v == first);
  __syncwarp();
  if (LANE_ID == 0) {
    out[blockIdx.x] = s + prev;
    dout[blockIdx.x] = d;
    iout[blockIdx.x] = i + __popc(ballot) + __ffs(ballot) + any + all;
    uout[blockIdx.x] = u;
    lout[blockIdx.x] = l;
  }
}

int main() {
  float *in, *out;
  double *d;
  int *i;
  unsigned *u;
  long long *l;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMalloc(&d, 32 * sizeof(double));
  cudaMalloc(&i, 32 * sizeof(int));
  cudaMalloc(&u, 32 * sizeof(unsigned));
  cudaMalloc(&l, 32 * sizeof(long long));
  kernel<<<32, WARP_SIZE>>>(in, out, d, i, u, l);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
