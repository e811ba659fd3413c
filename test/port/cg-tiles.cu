// Port mode: cooperative groups tiles of a thread block
// (cg::tiled_partition<N>) are groups of their own N threads. On NVIDIA a
// tile of 32 is a warp; on AMD's wave64, HIP's tile operations are
// confined to the tile's lanes; on the CPU backend a tile's collectives
// (sync, the shuffles, ballot, any, all, cg::reduce) are exact-mask
// collectives of the tile's lanes of the mvector. So a tile may return, or
// wait at __syncthreads, while another tile of the same 64-lane mvector
// computes (warpgen finding 001: these failed at 64 lanes, the tile that
// computed waiting for the other half of the mvector). Blocks of 96
// threads end in a partial mvector at 64 lanes. The same output at 32 and
// 64 lanes, and the port builds for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite --port %s -o %t.cpp -- 2>&1 | FileCheck %s --check-prefix=PORT --allow-empty
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// PORT-NOT: {{warning|error}}
// OUT: rowSum: 3 rows, wrong 0
// OUT-NEXT: rowStats: 5 rows, wrong 0
// OUT-NEXT: blockScan: 250 values, wrong 0
// OUT-NEXT: quarterSums: 10 rows, wrong 0

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// One row per tile of 32 (llm.c's layernorm kernels): the tiles past the
// last row return before any collective, beside a tile that computes.
__global__ void rowSum(const int *m, int *y, int rows, int cols) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int row = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  if (row >= rows)
    return;
  int acc = 0;
  for (int c = tile.thread_rank(); c < cols; c += 32)
    acc += m[row * cols + c];
  for (int o = 16; o > 0; o /= 2)
    acc += tile.shfl_down(acc, o);
  if (tile.thread_rank() == 0)
    y[row] = acc;
}

// The same with cg::reduce, a tile.sync() and the tile's shfl, in blocks
// of 96 threads (three tiles; at 64 lanes the second mvector is partial).
__global__ void rowStats(const int *m, int *sum, int *max, int rows, int cols) {
  __shared__ int last[3];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int row = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  if (row >= rows)
    return;
  int s = 0, x = -1;
  for (int c = tile.thread_rank(); c < cols; c += tile.size()) {
    s += m[row * cols + c];
    x = m[row * cols + c] > x ? m[row * cols + c] : x;
  }
  s = cg::reduce(tile, s, cg::plus<int>());
  x = cg::reduce(tile, x, cg::greater<int>());
  if (tile.thread_rank() == 31)
    last[tile.meta_group_rank()] = s;
  tile.sync();
  int fromLast = tile.shfl(s, 31);
  if (tile.thread_rank() == 0) {
    sum[row] = last[tile.meta_group_rank()] == fromLast ? s : -1;
    max[row] = x;
  }
}

// A block scan: each tile scans itself, then tile 0 alone scans the tiles'
// sums while the other tiles wait at __syncthreads, then every tile adds
// the sums before it. Blocks of 96 threads.
__global__ void blockScan(const int *in, int *out, int n) {
  __shared__ int sums[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int o = 1; o < 32; o *= 2) {
    int u = tile.shfl_up(v, o);
    if (tile.thread_rank() >= o)
      v += u;
  }
  if (tile.thread_rank() == 31)
    sums[tile.meta_group_rank()] = v;
  __syncthreads();
  if (tile.meta_group_rank() == 0) {
    unsigned r = tile.thread_rank();
    int s = r < tile.meta_group_size() ? sums[r] : 0;
    for (int o = 1; o < 32; o *= 2) {
      int u = tile.shfl_up(s, o);
      if (r >= o)
        s += u;
    }
    tile.sync();
    if (r < tile.meta_group_size())
      sums[r] = s;
  }
  __syncthreads();
  if (tile.meta_group_rank() > 0)
    v += sums[tile.meta_group_rank() - 1];
  if (i < n)
    out[i] = v;
}

// Tiles of 16 with shfl_xor and votes, one row per tile; odd tiles of the
// block return at once.
__global__ void quarterSums(const int *m, int *y, int rows) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  if (tile.meta_group_rank() % 2 == 1)
    return;
  int row =
      blockIdx.x * (tile.meta_group_size() / 2) + tile.meta_group_rank() / 2;
  if (row >= rows)
    return;
  int v = m[row * 16 + tile.thread_rank()];
  for (int o = 8; o > 0; o /= 2)
    v += tile.shfl_xor(v, o);
  unsigned odd = tile.ballot(m[row * 16 + tile.thread_rank()] % 2);
  if (tile.all(v == tile.shfl(v, 0)) && tile.thread_rank() == 0)
    y[row] = v * 100 + __popc(odd);
}

int main() {
  int *m, *sum, *max, *in, *out;
  cudaMallocManaged(&m, 10 * 40 * sizeof(int));
  cudaMallocManaged(&sum, 10 * sizeof(int));
  cudaMallocManaged(&max, 10 * sizeof(int));
  cudaMallocManaged(&in, 250 * sizeof(int));
  cudaMallocManaged(&out, 250 * sizeof(int));
  for (int e = 0; e < 10 * 40; ++e)
    m[e] = (e * 7) % 11;

  rowSum<<<1, 128>>>(m, sum, 3, 40);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (int r = 0; r < 3; ++r) {
    int want = 0;
    for (int c = 0; c < 40; ++c)
      want += m[r * 40 + c];
    wrong += sum[r] != want;
  }
  std::printf("rowSum: 3 rows, wrong %d\n", wrong);

  rowStats<<<2, 96>>>(m, sum, max, 5, 40);
  cudaDeviceSynchronize();
  wrong = 0;
  for (int r = 0; r < 5; ++r) {
    int s = 0, x = -1;
    for (int c = 0; c < 40; ++c) {
      s += m[r * 40 + c];
      x = m[r * 40 + c] > x ? m[r * 40 + c] : x;
    }
    wrong += sum[r] != s || max[r] != x;
  }
  std::printf("rowStats: 5 rows, wrong %d\n", wrong);

  for (int e = 0; e < 250; ++e)
    in[e] = e % 5 - 1;
  blockScan<<<3, 96>>>(in, out, 250);
  cudaDeviceSynchronize();
  wrong = 0;
  for (int b = 0; b < 3; ++b) {
    int acc = 0;
    for (int e = b * 96; e < b * 96 + 96 && e < 250; ++e) {
      acc += in[e];
      wrong += out[e] != acc;
    }
  }
  std::printf("blockScan: 250 values, wrong %d\n", wrong);

  quarterSums<<<4, 96>>>(m, sum, 10);
  cudaDeviceSynchronize();
  wrong = 0;
  for (int r = 0; r < 10; ++r) {
    int s = 0, odd = 0;
    for (int c = 0; c < 16; ++c) {
      s += m[r * 16 + c];
      odd += m[r * 16 + c] % 2;
    }
    wrong += sum[r] != s * 100 + odd;
  }
  std::printf("quarterSums: 10 rows, wrong %d\n", wrong);
  cudaFree(m);
  cudaFree(sum);
  cudaFree(max);
  cudaFree(in);
  cudaFree(out);
}
