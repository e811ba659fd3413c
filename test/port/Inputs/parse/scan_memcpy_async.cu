// Cooperative groups scans (inclusive and exclusive, with plus by default
// and with an operation) and a group-wide asynchronous copy into shared
// memory that the block waits for.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/scan.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void compact(const int *in, int *out, int *counts, int n) {
  __shared__ int staged[256];
  cg::thread_block block = cg::this_thread_block();
  const int *src = in + blockIdx.x * 256;
  cg::memcpy_async(block, staged, src, sizeof(int) * 256);
  cg::wait(block);
  auto tile = cg::tiled_partition<32>(block);
  int v = staged[block.thread_rank()];
  int keep = v > 0 ? 1 : 0;
  int offset = cg::exclusive_scan(tile, keep);
  int running = cg::inclusive_scan(tile, v, cg::plus<int>());
  int best = cg::inclusive_scan(tile, v, cg::greater<int>());
  if (keep)
    out[blockIdx.x * 256 + tile.meta_group_rank() * 32 + offset] = v;
  if (tile.thread_rank() == tile.num_threads() - 1)
    counts[blockIdx.x * 8 + tile.meta_group_rank()] =
        offset + keep + (running > best ? 0 : 1);
  (void)n;
}

int main() {
  int *in, *out, *counts;
  cudaMalloc(&in, 1024 * sizeof(int));
  cudaMalloc(&out, 1024 * sizeof(int));
  cudaMalloc(&counts, 32 * sizeof(int));
  compact<<<4, 256>>>(in, out, counts, 1024);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
