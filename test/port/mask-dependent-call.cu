// A mask passed to a device function template through a call that depends
// on the kernel's template parameter (`warpSum(0xffffffffu, v)` with v of
// type T): the call names its function by a dependent lookup, and the
// mask flows into the parameter of every function the name may resolve to
// (lib/Analysis/LaneMask.cpp). In a kernel that runs on whole wavefronts,
// the parameter is widened and the full mask at the call too, written as
// a literal or by a macro. Found by warpgen --cuda (finding 005).
// RUN: %hpp_rewrite --port %s -o %t.cpp -- 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s < %t.cpp
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// QUIET-NOT: [hpp-
// CHECK: __device__ T warpSum(hpp::LaneMask mask, T v) {
// CHECK: v = warpSum(hpp::getWarpFullMask(), v);
// CHECK: v = warpSum(hpp::getWarpFullMask(), v);
// OUT: literal 256, macro 256

#include <cstdio>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

template <typename T> __device__ T warpSum(unsigned mask, T v) {
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(mask, v, o);
  return v;
}

template <typename T> __global__ void literal(const T *in, T *out) {
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
  v = warpSum(0xffffffffu, v);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(out, v);
}

template <typename T> __global__ void macro(const T *in, T *out) {
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
  v = warpSum(FULL_MASK, v);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(out + 1, v);
}

int main() {
  const int n = 256;
  int *in, *out;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, 2 * sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = 1;
  out[0] = out[1] = 0;
  literal<<<2, 128>>>(in, out);
  macro<<<2, 128>>>(in, out);
  cudaDeviceSynchronize();
  std::printf("literal %d, macro %d\n", out[0], out[1]);
  return 0;
}
