// Port mode: host code that sizes a launch from the device's warp size
// (cudaGetDeviceProperties' warpSize, cudaDeviceGetAttribute with
// cudaDevAttrWarpSize) reads 32 on NVIDIA; on a 64-lane wavefront it reads
// 64, but a kernel the port keeps on 32-lane warps has warps of 32: half
// the slots the kernel writes. Where the value sizes only launches of such
// kernels, in its function or, passed as an argument, in the functions it
// is passed to (launchWith), the read becomes hpp::warp32::size (a
// remark); where the tool cannot tie it to a launch (a call through a
// pointer), it is a warning. Finding 002 of warpgen --cuda. The port prints
// the same sums at 32 and 64 lanes, and builds for sm_90, gfx90a and
// gfx1030.
// RUN: %hpp_rewrite --port %s -o %t.cpp -- 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --check-prefix=PORT < %t.cpp
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// RUN: %hpp_rewrite --port %s -o %t.untied.cpp -- -DUNTIED 2>&1 | FileCheck %s --check-prefix=UNTIED
// DIAG-NOT: warning:
// DIAG: host-warp-size.cu:[[@LINE+54]]:{{[0-9]+}}: remark: 'blockSum', whose launch this value sizes, keeps 32-lane warps on every target, so the device's warp size here is the logical warp's (32), as on NVIDIA [hpp-host-warp-size]
// DIAG: host-warp-size.cu:[[@LINE+24]]:{{[0-9]+}}: note: the kernel assumes 32-lane warps here: the literal '16'
// DIAG: host-warp-size.cu:[[@LINE+56]]:{{[0-9]+}}: remark: 'blockSum', whose launch {{.*}}[hpp-host-warp-size]
// DIAG: host-warp-size.cu:[[@LINE+55]]:{{[0-9]+}}: remark: 'blockSum', whose launch {{.*}}[hpp-host-warp-size]
// DIAG: host-warp-size.cu:[[@LINE+57]]:27: remark: 'blockSum', whose launch {{.*}}[hpp-host-warp-size]
// DIAG: host-warp-size.cu:[[@LINE+35]]:3: note: the value is passed to this launch through the parameters of the functions that launch
// DIAG-NOT: warning:
// PORT: const int slots = threads / hpp::warp32::size;
// PORT: int perWarp = (threads + hpp::warp32::size - 1) / hpp::warp32::size;
// PORT: launchWith(in, out + 4, hpp::warp32::size);
// PORT: std::printf("device warp size %d\n", prop.warpSize);
// UNTIED: host-warp-size.cu:[[@LINE+54]]:{{[0-9]+}}: warning: this is the device's warp size (64 on a wave64 GPU), but kernels of this file keep 32-lane warps on every target (two per 64-lane wavefront), and the tool cannot tell which kernel's launch this value sizes [hpp-host-warp-size]
// UNTIED: note: the kernel assumes 32-lane warps here: the literal '16'
// UNTIED: host-warp-size.cu:[[@LINE+52]]:3: note: the value is passed to this call, whose callee the tool does not follow
// UNTIED: note: write 32 (hpp::warp32::size) where the value sizes a kernel that keeps 32-lane warps
// OUT: sums 96 96 96 96 96 96

#include <cstdio>

/// One slot per 32-lane warp (the literal 16: 32-lane warps), added by
/// thread 0 over blockDim.x / warpSize warps.
__global__ void blockSum(const int *in, int *out) {
  extern __shared__ int slots[];
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0)
    slots[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < blockDim.x / warpSize; ++w)
      t += slots[w];
    out[blockIdx.x] = t;
  }
}

/// Its parameter sizes only launches of blockSum: a value passed to it is.
static void launchWith(const int *in, int *out, int warp) {
  blockSum<<<2, 96, (96 / warp) * sizeof(int)>>>(in, out);
}

int main() {
  const int threads = 96;
  int *in, *out;
  cudaMallocManaged(&in, 2 * threads * sizeof(int));
  cudaMallocManaged(&out, 6 * sizeof(int));
  for (int e = 0; e < 2 * threads; ++e)
    in[e] = 1;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  // Printed only: no kernel's value.
  std::printf("device warp size %d\n", prop.warpSize);
  const int slots = threads / prop.warpSize;
  blockSum<<<2, threads, slots * sizeof(int)>>>(in, out);
  int warp = 0;
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);
  int perWarp = (threads + warp - 1) / warp;
  blockSum<<<2, threads, perWarp * sizeof(int)>>>(in, out + 2);
#ifndef UNTIED
  launchWith(in, out + 4, prop.warpSize);
#else
  // Through a pointer: the tool does not follow the call.
  void (*launch)(const int *, int *, int) = launchWith;
  launch(in, out + 4, prop.warpSize);
#endif
  cudaDeviceSynchronize();
  std::printf("sums %d %d %d %d %d %d\n", out[0], out[1], out[2], out[3],
              out[4], out[5]);
}
