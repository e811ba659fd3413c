//===- examples/cuda/match_any_groupby.cu - __match_any_sync group-by -----===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A group-by (count and sum per key) that aggregates equal keys inside a
/// warp before touching global memory, the way GPU query engines and CCCL's
/// histogram agent do it (`__match_any_sync(__activemask(), key)`, the
/// leader `__ffs(peers) - 1` doing one atomic for its peers):
///  - rows that are filtered out leave early (`if (!valid[i]) return;`),
///    so the rest of the kernel runs divergent and takes its mask from
///    `__activemask()`;
///  - `__match_any_sync(active, key)` gives each lane the set of lanes with
///    the same key; the peers sum their values by walking that set with
///    `__shfl_sync(peers, v, src)` (every peer makes the same calls under
///    the same mask), and the leader adds `__popc(peers)` and the sum;
///  - a second kernel first asks `__match_all_sync(active, key, &pred)`:
///    when the whole active warp holds one key, a single lane does one
///    atomic for it; otherwise it falls back to the match_any path.
///
/// Warp-32 assumptions: masks are `unsigned int`, lanes come from
/// `threadIdx.x & 31`, and `1u << lane` builds lane masks. Renamed only,
/// for a 64-lane wavefront: HIP's __activemask and __match_any_sync return
/// 64-bit masks (HIP added the match functions in ROCm 6.2, ROCm/hip issue
/// 3345); cut to 32 bits they drop lanes 32..63 from every peer set, so a
/// group that lives in the upper half gets an empty set, elects no leader
/// and vanishes, and a group spanning both halves counts only its lower
/// half. AMD has no independent thread scheduling, and ROCm asks that a
/// *_sync mask be the whole converged set (ROCm/legacy-rocm-build issue
/// 5241); the per-group `__shfl_sync(peers, ...)` loop passes a strict
/// subset, which is valid CUDA on sm_70 and later and is one more thing a
/// port has to map to something defined.
///
/// Keys and values are integers; the per-key counts and sums are checked
/// exactly and printed as checksums.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_TRY(call)                                                         \
  do {                                                                         \
    cudaError_t const status = (call);                                         \
    if (cudaSuccess != status) {                                               \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__,         \
              __LINE__, cudaGetErrorString(status));                           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/// The sum of \p v over the lanes in \p peers, in every one of them.
__device__ __forceinline__ int sum_over_peers(unsigned int peers, int v) {
  int sum = 0;
  unsigned int rest = peers;
  while (rest) {
    int src = __ffs(rest) - 1;
    sum += __shfl_sync(peers, v, src);
    rest &= rest - 1;
  }
  return sum;
}

__global__ void groupby_match_any(const int *__restrict__ keys,
                                  const int *__restrict__ vals,
                                  const unsigned char *__restrict__ valid,
                                  int n, unsigned int *counts, int *sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (!valid[i])
    return;

  const int key = keys[i];
  const int v = vals[i];
  const int lane = threadIdx.x & 31;
  const unsigned int active = __activemask();
  const unsigned int peers = __match_any_sync(active, key);
  const int leader = __ffs(peers) - 1;
  const int total = sum_over_peers(peers, v);
  if (lane == leader) {
    atomicAdd(&counts[key], (unsigned int)__popc(peers));
    atomicAdd(&sums[key], total);
  }
}

__global__ void groupby_match_all(const int *__restrict__ keys,
                                  const int *__restrict__ vals,
                                  const unsigned char *__restrict__ valid,
                                  int n, unsigned int *counts, int *sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !valid[i])
    return;

  const int key = keys[i];
  const int v = vals[i];
  const int lane = threadIdx.x & 31;
  const unsigned int active = __activemask();
  int all_same = 0;
  __match_all_sync(active, key, &all_same);
  // Both branches are taken by whole groups: all_same is the same in every
  // lane of `active`.
  unsigned int peers = all_same ? active : __match_any_sync(active, key);
  const int total = sum_over_peers(peers, v);
  // The first peer (no peer in a lower lane) publishes the group.
  const unsigned int lanemask_lt = (1u << lane) - 1u;
  if (__popc(peers & lanemask_lt) == 0) {
    atomicAdd(&counts[key], (unsigned int)__popc(peers));
    atomicAdd(&sums[key], total);
  }
}

int main() {
  const int n = 30000;
  const int nkeys = 50;
  const int threads = 128;
  const int blocks = (n + threads - 1) / threads;

  std::vector<int> h_keys(n), h_vals(n);
  std::vector<unsigned char> h_valid(n);
  for (int i = 0; i < n; ++i) {
    // Runs of equal keys (several per warp) mixed with scattered ones,
    // and long uniform stretches where whole warps share a key.
    if ((i / 256) % 4 == 3)
      h_keys[i] = (i / 256) % nkeys;
    else if (i % 3 == 0)
      h_keys[i] = (i * 7) % nkeys;
    else
      h_keys[i] = (i / 7) % nkeys;
    h_vals[i] = (i % 17) - 5;
    h_valid[i] = (i % 5 != 3) ? 1 : 0;
  }
  std::vector<unsigned int> want_counts(nkeys, 0);
  std::vector<int> want_sums(nkeys, 0);
  for (int i = 0; i < n; ++i)
    if (h_valid[i]) {
      want_counts[h_keys[i]]++;
      want_sums[h_keys[i]] += h_vals[i];
    }

  int *d_keys, *d_vals, *d_sums;
  unsigned char *d_valid;
  unsigned int *d_counts;
  CUDA_TRY(cudaMalloc(&d_keys, n * sizeof(int)));
  CUDA_TRY(cudaMalloc(&d_vals, n * sizeof(int)));
  CUDA_TRY(cudaMalloc(&d_valid, n));
  CUDA_TRY(cudaMalloc(&d_counts, nkeys * sizeof(unsigned int)));
  CUDA_TRY(cudaMalloc(&d_sums, nkeys * sizeof(int)));
  CUDA_TRY(cudaMemcpy(d_keys, h_keys.data(), n * sizeof(int),
                      cudaMemcpyHostToDevice));
  CUDA_TRY(cudaMemcpy(d_vals, h_vals.data(), n * sizeof(int),
                      cudaMemcpyHostToDevice));
  CUDA_TRY(cudaMemcpy(d_valid, h_valid.data(), n, cudaMemcpyHostToDevice));

  bool ok = true;
  for (int variant = 0; variant < 2; ++variant) {
    const char *name = variant == 0 ? "match_any" : "match_all";
    CUDA_TRY(cudaMemset(d_counts, 0, nkeys * sizeof(unsigned int)));
    CUDA_TRY(cudaMemset(d_sums, 0, nkeys * sizeof(int)));
    if (variant == 0)
      groupby_match_any<<<blocks, threads>>>(d_keys, d_vals, d_valid, n,
                                             d_counts, d_sums);
    else
      groupby_match_all<<<blocks, threads>>>(d_keys, d_vals, d_valid, n,
                                             d_counts, d_sums);
    CUDA_TRY(cudaGetLastError());
    std::vector<unsigned int> counts(nkeys);
    std::vector<int> sums(nkeys);
    CUDA_TRY(cudaMemcpy(counts.data(), d_counts, nkeys * sizeof(unsigned int),
                        cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(sums.data(), d_sums, nkeys * sizeof(int),
                        cudaMemcpyDeviceToHost));
    long long count_total = 0, sum_checksum = 0;
    for (int k = 0; k < nkeys; ++k) {
      count_total += counts[k];
      sum_checksum += (long long)sums[k] * (k + 1);
      if (ok && (counts[k] != want_counts[k] || sums[k] != want_sums[k])) {
        printf("FAIL: %s: key %d: count %u sum %d, expected %u and %d\n",
               name, k, counts[k], sums[k], want_counts[k], want_sums[k]);
        ok = false;
      }
    }
    printf("%s: %d keys, rows counted = %lld, sum checksum = %lld\n", name,
           nkeys, count_total, sum_checksum);
  }

  CUDA_TRY(cudaFree(d_keys));
  CUDA_TRY(cudaFree(d_vals));
  CUDA_TRY(cudaFree(d_valid));
  CUDA_TRY(cudaFree(d_counts));
  CUDA_TRY(cudaFree(d_sums));
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
