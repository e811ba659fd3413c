// Cooperative-groups tiles of 16, 8 and 4 lanes beside the whole warp's
// (32): a tile smaller than a warp means the same on 32-lane warps and on
// 64-lane wavefronts, so the port keeps it as written, and the runtime
// supplies the members HIP lacks (cg::reduce, meta_group_rank/size, the
// votes). Each tile's shuffle tree, cg::reduce, ballot, any, and its rank
// in the block print the same at 32 and 64 lanes as on NVIDIA.
// RUN: %hpp_rewrite --port %s -o %t.cpp -- 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// QUIET-NOT: [hpp-
// OUT: 256 256 256 56 128 256
// OUT-NEXT: 256 256 256 240 512 256
// OUT-NEXT: 256 256 256 992 2048 256
// OUT-NEXT: 256 256 256 12 32 256

#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
template <int N> __global__ void tiles(const int *in, int *out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<N> t = cg::tiled_partition<N>(b);
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int s = v;
  for (int o = t.size() / 2; o > 0; o /= 2) s += t.shfl_down(s, o);
  int r = cg::reduce(t, v, cg::plus<int>());
  int x = t.shfl_xor(v, 1);
  unsigned bal = t.ballot(v > 0);
  int anyv = t.any(v > 1);
  if (t.thread_rank() == 0) {
    atomicAdd(out, s);
    atomicAdd(out + 1, r);
    atomicAdd(out + 2, __popc(bal));
    atomicAdd(out + 3, t.meta_group_rank());
    atomicAdd(out + 4, anyv + (int)t.meta_group_size());
  }
  atomicAdd(out + 5, x);
}
int main() {
  int *in, *out;
  cudaMallocManaged(&in, 256 * 4); cudaMallocManaged(&out, 64 * 4);
  for (int i = 0; i < 256; ++i) in[i] = 1;
  for (int i = 0; i < 64; ++i) out[i] = 0;
  tiles<16><<<2, 128>>>(in, out);
  tiles<8><<<2, 128>>>(in, out + 8);
  tiles<4><<<2, 128>>>(in, out + 16);
  tiles<32><<<2, 128>>>(in, out + 24);
  cudaDeviceSynchronize();
  for (int k = 0; k < 4; ++k) printf("%d %d %d %d %d %d\n", out[8*k], out[8*k+1], out[8*k+2], out[8*k+3], out[8*k+4], out[8*k+5]);
}
