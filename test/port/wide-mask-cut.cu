// A CUDA lane mask kept in an `unsigned long long` (or passed through one)
// reaches the intrinsics through their `unsigned` parameter: CUDA cuts it
// to the first 32 lanes, so it is a 32-bit mask, not a use of the whole
// wavefront. Beside a 32-lane fact such a kernel keeps 32-lane warps and
// is right at 32 and 64 (before: kept as written, with a warning; found by
// warpgen --cuda's long run). lib/Analysis/LaneMask.h, isWideLaneMask.
// RUN: %hpp_rewrite --port %s -o %t.cpp -- 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s < %t.cpp
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// QUIET-NOT: [hpp-
// CHECK: unsigned long long m = hpp::warp32::activeMask();
// CHECK: v += hpp::warp32::shflDownSync(m, v, o);
// CHECK: __device__ int leader(unsigned long long m, int v) {
// CHECK-NEXT: return hpp::warp32::shflSync(m, v, 0);
// CHECK: unsigned long long b = hpp::warp32::ballotSync(full, in[i] > 0);
// OUT: active 256, bcast 28672, ballot 128

#include <cstdio>
#include <cuda_runtime.h>

__global__ void active(const int *in, int *out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned long long m = __activemask();
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(m, v, o);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, v);
}

__device__ int leader(unsigned long long m, int v) {
  return __shfl_sync(m, v, 0);
}

__global__ void bcast(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long full = 0xffffffffull;
  int lane = threadIdx.x & 31;
  atomicAdd(out + 1, leader(full, i) + lane - lane);
}

__global__ void ballot(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long full = ~0ull;
  unsigned long long b = __ballot_sync(full, in[i] > 0);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out + 2, __popcll(b) / 2);
}

int main() {
  const int n = 256;
  int *in, *out;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, 3 * sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = 1;
  for (int k = 0; k < 3; ++k) out[k] = 0;
  active<<<2, 128>>>(in, out);
  bcast<<<2, 128>>>(in, out);
  ballot<<<2, 128>>>(in, out);
  cudaDeviceSynchronize();
  std::printf("active %d, bcast %d, ballot %d\n", out[0], out[1],
              out[2]);
  return 0;
}
