// The warp match (sm_70) and reduce (sm_80) intrinsics: grouping lanes by
// key and reducing within the warp in one instruction.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void groupByKey(const int *keys, const unsigned *vals,
                           unsigned *sums, unsigned *peers) {
  int key = keys[threadIdx.x];
  unsigned mask = __match_any_sync(0xffffffffu, key);
  int pred = 0;
  unsigned same = __match_all_sync(0xffffffffu, (long long)key, &pred);
  unsigned long long wide = (unsigned long long)key;
  unsigned byWide = __match_any_sync(__activemask(), wide);
  unsigned v = vals[threadIdx.x];
  unsigned total = __reduce_add_sync(0xffffffffu, v);
  unsigned lo = __reduce_min_sync(0xffffffffu, v);
  int hi = __reduce_max_sync(0xffffffffu, (int)v);
  unsigned bits = __reduce_and_sync(mask, v) | __reduce_or_sync(mask, v) |
                  __reduce_xor_sync(mask, v);
  int leader = __ffs(mask) - 1;
  if ((int)(threadIdx.x & 31) == leader)
    sums[threadIdx.x] = total + lo + hi + bits;
  peers[threadIdx.x] = __popc(mask) + pred + same + byWide;
}

int main() {
  int *keys;
  unsigned *vals, *sums, *peers;
  cudaMalloc(&keys, 32 * sizeof(int));
  cudaMalloc(&vals, 32 * sizeof(unsigned));
  cudaMalloc(&sums, 32 * sizeof(unsigned));
  cudaMalloc(&peers, 32 * sizeof(unsigned));
  groupByKey<<<1, 32>>>(keys, vals, sums, peers);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
