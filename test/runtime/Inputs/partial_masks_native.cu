// A group-by written with warpSize only, so that hpp-rewrite --port runs it
// on whole wavefronts (partial-masks.test): its masks become hpp::LaneMask,
// __activemask, __match_any_sync, __match_all_sync and __shfl_sync the hpp::
// operations of the device's width, and __ffs of a mask hpp::ffsMask.
// Items return early; the rest take the active mask, group by key and sum
// over their peers, and count the items whose warp lies in one range of 48
// items (__match_all_sync). The sums do not depend on the width; the
// groups and the ranges do.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void groupby(const int *keys, int n, int *sums, int *groups,
                        int *uniform) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || i % 5 == 1)
    return;
  const int lane = threadIdx.x % warpSize;
  unsigned active = __activemask();
  unsigned peers = __match_any_sync(active, keys[i]);
  int pred = 0;
  unsigned same = __match_all_sync(active, i / 48, &pred);
  int sum = 0;
  for (unsigned rest = peers; rest; rest &= rest - 1)
    sum += __shfl_sync(peers, i, __ffs(rest) - 1);
  if (lane == __ffs(peers) - 1) {
    atomicAdd(&sums[keys[i]], sum);
    atomicAdd(groups, 1);
  }
  if (same == active && pred)
    atomicAdd(uniform, 1);
}

int main() {
  const int n = 3000, nkeys = 9;
  int *keys, *sums, *counters;
  cudaMallocManaged(&keys, n * sizeof(int));
  cudaMallocManaged(&sums, nkeys * sizeof(int));
  cudaMallocManaged(&counters, 2 * sizeof(int));
  std::vector<int> want(nkeys, 0);
  for (int i = 0; i < n; ++i) {
    keys[i] = (i / 4) % nkeys;
    if (i % 5 != 1)
      want[keys[i]] += i;
  }
  for (int k = 0; k < nkeys; ++k)
    sums[k] = 0;
  counters[0] = counters[1] = 0;
  groupby<<<(n + 127) / 128, 128>>>(keys, n, sums, counters, counters + 1);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int k = 0; k < nkeys; ++k)
    ok &= sums[k] == want[k];
  int width = 0;
  cudaDeviceGetAttribute(&width, cudaDevAttrWarpSize, 0);
  printf("native groupby: %s\n", ok ? "verified" : "WRONG");
  printf("width %d: %d groups, %d items in warps of one range\n", width,
         counters[0], counters[1]);
  return 0;
}
