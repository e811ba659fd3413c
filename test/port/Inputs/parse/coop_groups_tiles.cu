// Cooperative groups: the block, static tiles of 32 and 16 threads, tile
// shuffles, cg::reduce with CUDA's operations and a lambda, a dynamic
// partition, the coalesced group and the free functions over groups.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>

namespace cg = cooperative_groups;

__device__ float tileSum(cg::thread_block_tile<32> tile, float v) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  return v;
}

template <int BlockSize>
__global__ void blockSum(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);
  auto tile16 = cg::tiled_partition<16>(tile32);
  __shared__ float partial[BlockSize / 32];
  unsigned idx = blockIdx.x * block.size() + block.thread_rank();
  float v = idx < (unsigned)n ? in[idx] : 0.0f;
  float s = tileSum(tile32, v);
  float r = cg::reduce(tile32, v, cg::plus<float>());
  float m = cg::reduce(tile16, v, cg::greater<float>());
  int c = cg::reduce(tile32, (int)(v > 0), [](int a, int b) { return a + b; });
  if (tile32.thread_rank() == 0)
    partial[tile32.meta_group_rank()] = s + r - m + c;
  cg::sync(block);
  if (tile32.meta_group_rank() == 0) {
    float p = tile32.thread_rank() < tile32.meta_group_size()
                  ? partial[tile32.thread_rank()]
                  : 0.0f;
    p = cg::reduce(tile32, p, cg::plus<float>());
    if (tile32.thread_rank() == 0)
      out[blockIdx.x] = p;
  }
  cg::thread_group eight = cg::tiled_partition(block, 8);
  eight.sync();
  if (v > 0.5f) {
    cg::coalesced_group active = cg::coalesced_threads();
    unsigned votes = active.ballot(v > 0.75f);
    if (active.thread_rank() == 0)
      out[gridDim.x + blockIdx.x] = active.size() + __popc(votes);
  }
  unsigned lanes = tile32.ballot(v > 0.0f) | tile32.match_any((int)v);
  if (tile32.any(lanes == 0) && tile32.all(v >= 0.0f))
    out[0] = tile16.shfl(v, 0) + tile32.shfl_xor(v, 1);
  dim3 group = block.group_index(), thread = block.thread_index();
  (void)group;
  (void)thread;
  block.sync();
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  blockSum<256><<<16, 256>>>(in, out, 4096);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
