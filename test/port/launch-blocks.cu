// Port mode: a kernel written with warpSize alone would run on whole 64-lane
// wavefronts, which compute what 32-lane warps compute only in blocks of
// whole wavefronts, at least two: a block of 96 or 160 threads leaves a
// partial last wavefront (`blockDim.x / warpSize` drops it, a shuffle from
// lane + 32 reads lanes that are not there), and a block of 64 is two warps
// but one wavefront. Such a launch's block is a 32-lane fact of the kernel
// it launches (lib/Analysis/LaunchFacts.h), however the host writes it: a
// literal, a variable, a dim3, a conditional (every arm), a macro, a
// template argument. Findings 003 and 006 of warpgen --cuda. The port
// prints the same sums at 32 and 64 lanes, and builds for sm_90, gfx90a and
// gfx1030.
// RUN: %hpp_rewrite --port %s -o %t.cpp --report-json=%t.json -- 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: %python -c "import json,sys; [print(k['name'], k['model'], k['thirtyTwo'], sep=' | ') for k in json.load(open(sys.argv[1]))['files'][0]['kernels']]" %t.json | FileCheck %s --check-prefix=MODEL
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// DIAG-NOT: warning:
// MODEL: literal96 | logical32 | {{.*}}launch-blocks.cu:[[@LINE+141]]:18: a block of 96 threads (a partial last 64-lane wavefront) in the host code that launches it
// MODEL-NEXT: variable160 | logical32 | {{.*}}launch-blocks.cu:[[@LINE+142]]:20: a block of 160 threads (a partial last 64-lane wavefront) in the host code that launches it
// MODEL-NEXT: dim3Var | logical32 | {{.*}}launch-blocks.cu:[[@LINE+143]]:19: a block of 96 threads (a partial last 64-lane wavefront) in the host code that launches it
// MODEL-NEXT: conditional | logical32 | {{.*}}launch-blocks.cu:[[@LINE+143]]:20: a block of 96 threads (a partial last 64-lane wavefront) in the host code that launches it
// MODEL-NEXT: macro64 | logical32 | {{.*}}launch-blocks.cu:[[@LINE+143]]:16: a block of 64 threads (two 32-lane warps, one 64-lane wavefront) in the host code that launches it
// MODEL-NEXT: byTemplate | logical32 | {{.*}}launch-blocks.cu:[[@LINE+127]]:28: a block of 96 threads (a partial last 64-lane wavefront) in the host code that launches it
// MODEL-NEXT: whole | logical32 | {{.*}}launch-blocks.cu:[[@LINE+126]]:28: another kernel of this file keeps 32-lane warps (a block of 96 threads (a partial last 64-lane wavefront) in the host code that launches it)
// MODEL-NOT: {{.}}
// OUT: sums 96 96 160 160 96 96 96 96 64 64 96 96 256 256 256 256

#include <cstdio>

#define BLOCK 64

// Each kernel sums its block: per-warp shuffles from warpSize / 2, one slot
// per warp, the slots of blockDim.x / warpSize warps (rounded up) added by
// thread 0.
__global__ void literal96(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < (blockDim.x + warpSize - 1) / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

__global__ void variable160(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < (blockDim.x + warpSize - 1) / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

__global__ void dim3Var(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < (blockDim.x + warpSize - 1) / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

__global__ void conditional(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < (blockDim.x + warpSize - 1) / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

__global__ void macro64(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < (blockDim.x + warpSize - 1) / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

template <int Threads> __global__ void byTemplate(const int *in, int *out) {
  __shared__ int s[Threads / 2];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < (blockDim.x + warpSize - 1) / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

/// Blocks of 256: whole wavefronts; it keeps 32-lane warps only by the
/// file's rule (docs/width-model.md).
__global__ void whole(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < (blockDim.x + warpSize - 1) / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

template <int Threads> void runTemplate(const int *in, int *out) {
  byTemplate<Threads><<<2, Threads>>>(in, out);
}

int main(int argc, char **) {
  int *in, *out;
  cudaMallocManaged(&in, 512 * sizeof(int));
  cudaMallocManaged(&out, 16 * sizeof(int));
  for (int e = 0; e < 512; ++e)
    in[e] = 1;
  literal96<<<2, 96>>>(in, out);
  int threads = 160;
  variable160<<<2, threads>>>(in, out + 2);
  dim3 block(96), grid(2);
  dim3Var<<<grid, block>>>(in, out + 4);
  conditional<<<2, argc > 4 ? 256 : 96>>>(in, out + 6);
  macro64<<<2, BLOCK>>>(in, out + 8);
  runTemplate<96>(in, out + 10);
  runTemplate<256>(in, out + 12);
  whole<<<2, 256>>>(in, out + 14);
  cudaDeviceSynchronize();
  std::printf("sums");
  for (int k = 0; k < 16; ++k)
    std::printf(" %d", out[k]);
  std::printf("\n");
}
