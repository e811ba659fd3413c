// Port mode: warp-synchronous code through volatile memory
// (hpp-cuda-volatile-warp), the end of a reduction before Volta: a lane
// reads an element another lane wrote in the step before, with no
// __syncwarp() between, which is right only in lockstep (not under
// independent thread scheduling, nor on the CPU backend). A warning at the
// first step, a note at the read, one with what to write instead; no edit
// (the output is the same with the check off). Fires on: an inline block
// (`volatile float *s = sdata;`), a device helper with a volatile
// parameter, steps a macro writes, a template and a kernel template, a loop
// of steps. Does not fire on: a volatile flag one thread polls, volatile
// locals, steps with __syncwarp() between, a read-only volatile loop,
// volatile elements each lane reads and writes at its own index.
// RUN: %hpp_rewrite --port %s -o %t.cpp -- 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: grep -c 'warning: .*\[hpp-cuda-volatile-warp\]' %t.err | grep -x 6
// RUN: %hpp_rewrite --port %s -o %t.off.cpp --disable=hpp-cuda-volatile-warp -- 2> %t.off.err
// RUN: not grep '\[hpp-' %t.off.err
// RUN: diff %t.cpp %t.off.cpp

#include <cstdio>

__global__ void inlineBlock(const float *in, float *out) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float *s = sdata;
    s[tid] += s[tid + 32];
    // CHECK: volatile-warp.cu:[[@LINE-1]]:5: warning: warp-synchronous code: lanes exchange values through volatile memory with no __syncwarp() between the steps, which is right only while the warp runs in lockstep (not under independent thread scheduling, Volta and later, nor on the CPU backend) [hpp-cuda-volatile-warp]
    s[tid] += s[tid + 16];
    // CHECK: volatile-warp.cu:[[@LINE-1]]:15: note: a lane reads 's[tid + 16]' here, which another lane writes as 's[tid]' before, with no barrier between
    // CHECK: volatile-warp.cu:[[@LINE-4]]:5: note: write __syncwarp() between the read and the write of each step (`v = s[tid] + s[tid + 16]; __syncwarp(); s[tid] = v; __syncwarp();`), or reduce in registers with __shfl_down_sync (docs/port.md)
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__device__ void warpReduce(volatile int *sdata, int tid) {
  sdata[tid] += sdata[tid + 32];
  // CHECK: volatile-warp.cu:[[@LINE-1]]:3: warning: warp-synchronous code
  sdata[tid] += sdata[tid + 16];
  // CHECK: volatile-warp.cu:[[@LINE-1]]:17: note: a lane reads 'sdata[tid + 16]' here
  sdata[tid] += sdata[tid + 8];
}

#define STEP(o) s[tid] += s[tid + (o)]
__device__ void warpReduceMacro(volatile int *s, int tid) {
  STEP(32);
  // CHECK: volatile-warp.cu:[[@LINE-1]]:3: warning: warp-synchronous code
  STEP(16);
  // CHECK: volatile-warp.cu:[[@LINE-1]]:3: note: a lane reads 's[tid + (o)]' here, which another lane writes as 's[tid]' before
}

template <unsigned blockSize, class T>
__device__ void warpReduceT(volatile T *sdata, unsigned tid) {
  if (blockSize >= 64)
    sdata[tid] += sdata[tid + 32];
  // CHECK: volatile-warp.cu:[[@LINE-1]]:5: warning: warp-synchronous code
  if (blockSize >= 32)
    sdata[tid] += sdata[tid + 16];
  // CHECK: volatile-warp.cu:[[@LINE-1]]:19: note: a lane reads 'sdata[tid + 16]' here
}

/// cuda-samples' reduce4 before Volta.
template <unsigned blockSize, class T>
__global__ void reduce4(const T *in, T *out) {
  __shared__ T sdata[blockSize];
  unsigned tid = threadIdx.x;
  T mySum = in[blockIdx.x * blockSize + tid];
  sdata[tid] = mySum;
  __syncthreads();
  if (tid < 32) {
    volatile T *smem = sdata;
    if (blockSize >= 64) {
      smem[tid] = mySum = mySum + smem[tid + 32];
      // CHECK: volatile-warp.cu:[[@LINE-1]]:7: warning: warp-synchronous code
    }
    if (blockSize >= 32) {
      smem[tid] = mySum = mySum + smem[tid + 16];
      // CHECK: volatile-warp.cu:[[@LINE-1]]:35: note: a lane reads 'smem[tid + 16]' here
    }
  }
  if (tid == 0)
    out[blockIdx.x] = mySum;
}

__device__ void loopOfSteps(volatile int *s, int tid) {
  for (int o = 16; o > 0; o /= 2)
    s[tid] += s[tid + o];
  // CHECK: volatile-warp.cu:[[@LINE-1]]:5: warning: warp-synchronous code
  // CHECK: volatile-warp.cu:[[@LINE-2]]:15: note: a lane reads 's[tid + o]' here, which another lane writes as 's[tid]' in the iteration before
}

// The neighbours: no warning.

__global__ void pollFlag(volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    while (flag[0] == 0) {
    }
    out[0] = flag[1];
    flag[0] = 0;
  }
}

__global__ void volatileLocals(float *out) {
  volatile float acc = 0;
  acc += 1;
  acc += out[threadIdx.x];
  volatile float mine[4];
  mine[threadIdx.x % 4] = 1;
  out[threadIdx.x] = acc + mine[(threadIdx.x + 1) % 4];
}

__device__ void syncedSteps(volatile int *s, int tid) {
  s[tid] += s[tid + 16];
  __syncwarp();
  s[tid] += s[tid + 8];
  __syncwarp();
  s[tid] += s[tid + 4];
}

__device__ void syncedLoop(volatile int *s, int tid) {
  for (int o = 16; o > 0; o /= 2) {
    int v = s[tid] + s[tid + o];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
  }
}

__global__ void readOnly(const double *partials, double *out, int n) {
  const volatile double *vp = partials;
  double t = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    t += vp[i];
  out[threadIdx.x] = t;
}

__global__ void ownElement(float *p) {
  __shared__ volatile float own[64];
  own[threadIdx.x] = p[threadIdx.x];
  own[threadIdx.x] += 1;
  p[threadIdx.x] = own[threadIdx.x];
}

int main() {
  float *f;
  cudaMalloc(&f, 1024 * sizeof(float));
  inlineBlock<<<1, 64, 64 * sizeof(float)>>>(f, f + 512);
  reduce4<64><<<1, 64>>>(f, f + 512);
  cudaDeviceSynchronize();
  cudaFree(f);
}
