// CUDA warp code whose _sync operations run with part of a warp
// (partial-masks.test ports it with hpp-rewrite --port and runs it on the
// CPU backend, where each is a collective of exactly its mask's lanes):
//  - compact: warp-aggregated atomics, __activemask() inside a divergent
//    branch of a grid-stride loop, the leader's atomicAdd broadcast with
//    __shfl_sync(mask, ...);
//  - groupby: __activemask() after early returns (past the end, filtered
//    rows), __match_any_sync over it, the peers summing with
//    __shfl_sync(peers, ...) (disjoint masks at one call);
//  - disjoint: three groups of lanes (lane % 3) with disjoint masks, in
//    three branches at once and then at one call;
//  - converge: __activemask() after a branch that shuffled under a partial
//    mask (every lane: the branch is over), and in two branches;
//  - partial: a block of 48 threads (the mask names lanes that do not
//    exist);
//  - match: __match_any_sync on every value type of CUDA's, floats by
//    their bits, __match_all_sync with its predicate, under a partial mask.
// Each prints what it found, the same at 32 and 64 lanes. With a mode
// argument: an error (a launch that throws, printed "MODE: error: what()")
// or, for `outside`, a shuffle from a lane outside the mask. The error
// sites are marked "SITE: <mode>".
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

#define FULL 0xffffffffu

__device__ __forceinline__ int laneId() { return threadIdx.x & 31; }

__device__ int aggInc(int *ctr) {
  unsigned mask = __activemask();
  int leader = __ffs(mask) - 1;
  int res = 0;
  if (laneId() == leader)
    res = atomicAdd(ctr, __popc(mask));
  res = __shfl_sync(mask, res, leader);
  return res + __popc(mask & ((1u << laneId()) - 1u));
}

__global__ void compact(const int *in, int *out, int *count, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    if (in[i] % 3 == 0)
      out[aggInc(count)] = in[i];
}

__global__ void groupby(const int *keys, int n, int *sums, unsigned *counts,
                        unsigned *masks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || i % 7 == 3)
    return;
  unsigned active = __activemask();
  masks[i] = active;
  int key = keys[i];
  unsigned peers = __match_any_sync(active, key);
  int sum = 0;
  for (unsigned rest = peers; rest; rest &= rest - 1)
    sum += __shfl_sync(peers, i, __ffs(rest) - 1);
  if (laneId() == __ffs(peers) - 1) {
    atomicAdd(&sums[key], sum);
    atomicAdd(&counts[key], (unsigned)__popc(peers));
  }
}

__global__ void disjoint(int *out) {
  const int lane = laneId();
  const unsigned group = 0x49249249u << (lane % 3);
  const int v = threadIdx.x;
  int r;
  if (lane % 3 == 0)
    r = __shfl_sync(group, v, 0) * 100 + __popc(__ballot_sync(group, v & 1));
  else if (lane % 3 == 1)
    r = __shfl_down_sync(group, v, 3);
  else
    r = __any_sync(group, lane == 29) * 10 + __all_sync(group, lane > 1);
  const int first = __shfl_sync(group, v, lane % 3);
  out[threadIdx.x] = r * 1000 + first;
}

__global__ void converge(unsigned *out) {
  const int lane = laneId();
  int v = lane;
  if (lane >= 16)
    v = __shfl_sync(0xffff0000u, v, 16);
  const unsigned all = __activemask();
  unsigned branch;
  if (lane & 1) {
    branch = __activemask();
  } else {
    v += 1;
    branch = __activemask();
  }
  out[threadIdx.x] = (all == FULL) + 2 * (v == (lane >= 16 ? 16 : lane) +
                                                   !(lane & 1)) +
                     4 * (branch == ((lane & 1) ? 0xaaaaaaaau : 0x55555555u));
}

__global__ void partial(int *out) {
  out[threadIdx.x] = __shfl_sync(FULL, (int)threadIdx.x * 10, 3) +
                     __popc(__ballot_sync(FULL, 1));
}

template <class T> __device__ unsigned byKey(int key) {
  return __match_any_sync(FULL, (T)key);
}

__global__ void match(unsigned *out) {
  const int lane = laneId();
  const int key = lane / 4 + (lane == 31);
  unsigned bits = byKey<int>(key);
  bits &= byKey<unsigned>(key) & byKey<long>(key) & byKey<unsigned long>(key);
  bits &= byKey<long long>(key) & byKey<unsigned long long>(key);
  bits &= byKey<float>(key) & byKey<double>(key);
  // Bits, not values: -0.0 is not 0.0, a NaN is itself.
  const unsigned zeros = __match_any_sync(FULL, lane < 16 ? 0.0f : -0.0f);
  const unsigned nans = __match_any_sync(FULL, (double)NAN);
  int pred = -1, pred2 = -1, pred3 = -1;
  const unsigned same = __match_all_sync(FULL, 7, &pred);
  const unsigned differ = __match_all_sync(FULL, lane < 31, &pred2);
  unsigned low = 0;
  if (lane < 8)
    low = __match_all_sync(0xffu, lane / 8, &pred3);
  out[threadIdx.x * 8 + 0] = bits;
  out[threadIdx.x * 8 + 1] = zeros;
  out[threadIdx.x * 8 + 2] = nans;
  out[threadIdx.x * 8 + 3] = same;
  out[threadIdx.x * 8 + 4] = differ;
  out[threadIdx.x * 8 + 5] = low;
  out[threadIdx.x * 8 + 6] = pred * 100 + pred2 * 10 + pred3;
  out[threadIdx.x * 8 + 7] = 0;
}

__global__ void errors(int mode, int *out) {
  const int lane = laneId();
  int v = lane;
  if (mode == 0) {
    if (lane >= 8)
      return;
    v = __shfl_sync(FULL, v, 0); // SITE: exited
  } else if (mode == 1) {
    if (lane < 16)
      v = __shfl_sync(FULL, v, 1); // SITE: stuck
    else
      v = __shfl_sync(FULL, v, 2); // SITE: stuck-other
  } else if (mode == 2) {
    const unsigned mask = lane < 16 ? 0x1ffffu : 0xffff8000u;
    v = __shfl_sync(mask, v, 0); // SITE: masks
  } else if (mode == 3) {
    v = __shfl_sync(0xffffu, v, 0); // SITE: own
  } else {
    const unsigned group = 0x55555555u << (lane & 1);
    v = __shfl_sync(group, v, lane ^ 1);
  }
  out[threadIdx.x] = v;
}

template <class T> T *alloc(size_t n) {
  T *p = nullptr;
  cudaMallocManaged(&p, n * sizeof(T));
  return p;
}

static void runCompact() {
  const int n = 10000;
  int *in = alloc<int>(n), *out = alloc<int>(n), *count = alloc<int>(1);
  std::vector<int> want;
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 7919) % 1000;
    if (in[i] % 3 == 0)
      want.push_back(in[i]);
  }
  *count = 0;
  compact<<<7, 96>>>(in, out, count, n);
  cudaDeviceSynchronize();
  std::vector<int> got(out, out + *count);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  printf("compact: kept %d of %d, %s\n", *count, n,
         got == want ? "verified" : "WRONG");
}

static void runGroupby() {
  const int n = 1000, nkeys = 13;
  int *keys = alloc<int>(n), *sums = alloc<int>(nkeys);
  unsigned *counts = alloc<unsigned>(nkeys), *masks = alloc<unsigned>(n);
  std::vector<int> wantSum(nkeys, 0);
  std::vector<unsigned> wantCount(nkeys, 0);
  for (int i = 0; i < n; ++i) {
    keys[i] = (i / 3 + i % 5) % nkeys;
    if (i % 7 != 3) {
      wantSum[keys[i]] += i;
      ++wantCount[keys[i]];
    }
  }
  for (int k = 0; k < nkeys; ++k)
    sums[k] = 0, counts[k] = 0;
  groupby<<<(n + 63) / 64, 64>>>(keys, n, sums, counts, masks);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int k = 0; k < nkeys; ++k)
    ok &= sums[k] == wantSum[k] && counts[k] == wantCount[k];
  // The active mask: the lanes of the warp that did not return.
  for (int i = 0; i < n; ++i) {
    if (i % 7 == 3)
      continue;
    unsigned want = 0;
    for (int l = 0; l < 32; ++l) {
      int j = i / 32 * 32 + l;
      if (j < n && j % 7 != 3)
        want |= 1u << l;
    }
    ok &= masks[i] == want;
  }
  printf("groupby: %d keys, item 0 mask 0x%x, item 992 mask 0x%x, %s\n",
         nkeys, masks[0], masks[992], ok ? "verified" : "WRONG");
}

static void runDisjoint() {
  int *out = alloc<int>(64);
  disjoint<<<1, 64>>>(out);
  cudaDeviceSynchronize();
  printf("disjoint:");
  for (int t : {0, 1, 2, 3, 28, 29, 30, 31, 32, 33, 34, 63})
    printf(" %d", out[t]);
  printf("\n");
}

static void runConverge() {
  unsigned *out = alloc<unsigned>(64);
  converge<<<1, 64>>>(out);
  cudaDeviceSynchronize();
  int good = 0;
  for (int t = 0; t < 64; ++t)
    good += out[t] == 7;
  printf("converge: %d of 64 lanes saw the whole warp, the branch's lanes and "
         "the shuffled value\n",
         good);
}

static void runPartial() {
  int *out = alloc<int>(48);
  partial<<<1, 48>>>(out);
  cudaDeviceSynchronize();
  printf("partial: %d %d %d %d\n", out[0], out[31], out[32], out[47]);
}

static void runMatch() {
  unsigned *out = alloc<unsigned>(32 * 8);
  match<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  for (int t : {0, 5, 15, 16, 30, 31}) {
    const unsigned *o = out + t * 8;
    printf("match lane %d: keys 0x%08x zeros 0x%08x nans 0x%08x all 0x%08x "
           "differ 0x%x low 0x%x preds %d\n",
           t, o[0], o[1], o[2], o[3], o[4], o[5], (int)o[6]);
  }
}

int main(int argc, char **argv) {
  static const char *const Modes[] = {"exited", "stuck", "masks", "own",
                                      "outside"};
  if (argc > 1) {
    int mode = 0;
    while (mode < 5 && strcmp(argv[1], Modes[mode]) != 0)
      ++mode;
    int *out = alloc<int>(64);
    try {
      errors<<<1, 64>>>(mode, out);
      cudaDeviceSynchronize();
    } catch (const std::exception &e) {
      printf("%s: error: %s\n", argv[1], e.what());
      return 1;
    }
    printf("%s: %d %d %d %d\n", argv[1], out[0], out[1], out[32], out[33]);
    return 0;
  }
  runCompact();
  runGroupby();
  runDisjoint();
  runConverge();
  runPartial();
  runMatch();
  return 0;
}
