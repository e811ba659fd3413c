// Port mode: a cooperative groups tile's collectives are those of all its
// threads (CUDA requires every thread of the tile to call them). On the
// CPU backend a thread of the tile that returned before the tile's call is
// an error at the call's line, at 32 and 64 lanes alike (the tile's lanes
// are the same), for the tile's own operations and for cg::reduce; the
// other tile of a 64-lane mvector is no part of it.
// RUN: %hpp_rewrite --port %s -o %t.cpp -- 2>&1 | FileCheck %s --check-prefix=PORT --allow-empty
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 not --crash %t shfl 2>&1 | FileCheck %s --check-prefix=SHFL
// RUN: env HPP_CPU_MVECTOR=64 not --crash %t shfl 2>&1 | FileCheck %s --check-prefix=SHFL
// RUN: env HPP_CPU_MVECTOR=32 not --crash %t reduce 2>&1 | FileCheck %s --check-prefix=REDUCE
// RUN: env HPP_CPU_MVECTOR=64 not --crash %t reduce 2>&1 | FileCheck %s --check-prefix=REDUCE
// RUN: env HPP_CPU_MVECTOR=64 %t whole | FileCheck %s --check-prefix=WHOLE
// RUN: %gpu_check %t.cpp
// PORT-NOT: {{warning|error}}

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// Threads 16-31 of each tile return; the rest shuffle.
__global__ void halfTile(int *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() >= 16)
    return;
  int v = tile.shfl_down(int(tile.thread_rank()), 1);
  // SHFL: cg-tile-divergent.cu:[[@LINE-1]]: thread_block_tile::shfl_down failed: the mask 0xffffffff names lanes 16-31 of mvector 0 (width {{32|64}}), which exited without calling it
  out[threadIdx.x] = v;
}

// The same with cg::reduce: the error names the caller's line.
__global__ void halfReduce(int *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() >= 16)
    return;
  int v = cg::reduce(tile, 1, cg::plus<int>());
  // REDUCE: cg-tile-divergent.cu:[[@LINE-1]]: thread_block_tile::shfl_xor failed: the mask 0xffffffff names lanes 16-31 of mvector 0 (width {{32|64}}), which exited without calling it
  out[threadIdx.x] = v;
}

// Every thread of a tile calls it, whatever the other tile does: right.
__global__ void wholeTile(int *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.meta_group_rank() == 1)
    return;
  out[threadIdx.x] = cg::reduce(tile, 1, cg::plus<int>());
}

int main(int argc, char **argv) {
  int *out;
  cudaMallocManaged(&out, 64 * sizeof(int));
  const char *which = argc > 1 ? argv[1] : "whole";
  if (!std::strcmp(which, "shfl"))
    halfTile<<<1, 64>>>(out);
  else if (!std::strcmp(which, "reduce"))
    halfReduce<<<1, 64>>>(out);
  else
    wholeTile<<<1, 64>>>(out);
  cudaDeviceSynchronize();
  // WHOLE: whole: 32
  std::printf("whole: %d\n", out[0]);
  cudaFree(out);
}
