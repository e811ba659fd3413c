//===- examples/cs_reduction.cpp - cuda-samples' shuffle reduction --------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Integer sum in the shape of NVIDIA cuda-samples' reduction sample
/// (Samples/2_Concepts_and_Techniques/reduction: reduce7 and warpReduceSum
/// in reduction_kernel.cu, getNumBlocksAndThreads and the multi-pass loop
/// in reduction.cpp), written again in the dialect with the same idioms:
///  - each work-item sums its elements serially (two per step, grid
///    stride, when n is a power of two; one otherwise);
///  - `maskLength = blockSize & 31` and `mask = 0xffffffff >> maskLength`
///    ("31 = warpSize-1");
///  - warpReduceSum: `for (offset = warpSize / 2; offset > 0; offset /= 2)
///    mySum += __shfl_down_sync(mask, mySum, offset)`;
///  - `if ((tid % warpSize) == 0) sdata[tid / warpSize] = mySum`, a
///    barrier, `shmem_extent = blockSize / warpSize`, and the first warp
///    reduces the per-warp partials, with a mask from __ballot_sync;
///  - the host picks threads and blocks like getNumBlocksAndThreads (at
///    most 64 work-groups) and launches again on the block sums until one
///    is left; blockSize is a template parameter, dispatched by a switch.
/// Two changes: the sample reduces the partials in `if (tid <
/// shmem_extent)` with the mask __ballot_sync(mask, tid < shmem_extent);
/// on AMD every active lane of a wavefront must take part (the reference
/// runtime reports it), so here the whole first warp does, the lanes past
/// shmem_extent with 0, under __ballot_sync(mask, tid < blockSize). And the
/// work-groups have at least 32 work-items (the sample goes down to one,
/// and shuffles from lanes the block does not have).
///
/// Not right at 64: the pattern mixes warpSize with 32-bit masks. Under
/// CUDA semantics at 64 lanes (HPP_CPU_MVECTOR=64) the mask names a 32-lane
/// warp while the loop starts at warpSize / 2 = 32: a shuffle down by 32
/// leaves the 32-lane warp, so every lane adds its own value, and
/// tid % warpSize and tid / warpSize count 64-lane warps. The program then
/// prints a mismatch line and exits 1. A naive HIP port hits the same mix:
/// ROCm's
/// *_sync shuffles reject the 32-bit mask at compile time, and
/// `0xffffffff >> maskLength` widened to 64 bits names half a wavefront.
///
/// The inputs are bytes (the sample's rand() & 0xFF, from a hash here):
/// the int sum is exact and compared with a plain C++ sum.
///
/// Usage: cs_reduction [n [maxThreads]]   (n defaults to 2^20, at most
/// 2^23; maxThreads 256, a power of two from 32 to 1024)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>

using namespace hpp;

/// Work-groups of one launch (the sample's maxBlocks).
constexpr int MaxBlocks = 64;

template <class T>
__device(hpp) inline T warpReduceSum(unsigned int mask, T mySum) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    mySum += __shfl_down_sync(mask, mySum, offset);
  return mySum;
}

/// g_odata[b] = the sum of work-group b's share of g_idata[0, n).
template <class T, unsigned int blockSize, bool nIsPow2>
void reduce7(Pointer<T> g_idata, Pointer<T> g_odata, unsigned int n,
             int blocks) {
  DistArray<T> smem;
  Region<T> sdataRegion = smem.allocRegion(blockSize / 32 + 1);
  parallelFor(Range<1, 1>(Range<1>(std::size_t(blocks) * blockSize),
                          Range<1>(blockSize)),
              smem, [=](Index<1, 1> idx, BoundDistArray<T> a) __device(hpp) {
                Segment<T> sdata = a(sdataRegion);
                unsigned int tid = static_cast<unsigned int>(idx.getLocalX());
                unsigned int blockIdxX =
                    static_cast<unsigned int>(idx.getGroupX());
                unsigned int gridSize =
                    blockSize * static_cast<unsigned int>(idx.getGroupCountX());
                unsigned int maskLength = (blockSize & 31); // 31 = warpSize-1
                maskLength = (maskLength > 0) ? (32 - maskLength) : maskLength;
                const unsigned int mask = (0xffffffff) >> maskLength;

                T mySum = 0;
                if (nIsPow2) {
                  unsigned int i = blockIdxX * blockSize * 2 + tid;
                  gridSize = gridSize << 1;
                  while (i < n) {
                    mySum += g_idata[i];
                    if ((i + blockSize) < n)
                      mySum += g_idata[i + blockSize];
                    i += gridSize;
                  }
                } else {
                  unsigned int i = blockIdxX * blockSize + tid;
                  while (i < n) {
                    mySum += g_idata[i];
                    i += gridSize;
                  }
                }

                mySum = warpReduceSum<T>(mask, mySum);
                if ((tid % warpSize) == 0)
                  sdata[tid / warpSize] = mySum;
                sdata.barrier();

                const unsigned int shmem_extent =
                    (blockSize / warpSize) > 0 ? (blockSize / warpSize) : 1;
                const unsigned int ballot_result =
                    __ballot_sync(mask, tid < blockSize);
                if (tid / warpSize == 0) {
                  mySum = tid < shmem_extent ? sdata[tid] : 0;
                  mySum = warpReduceSum<T>(ballot_result, mySum);
                }
                if (tid == 0)
                  g_odata[blockIdxX] = mySum;
              });
}

static unsigned int nextPow2(unsigned int x) {
  --x;
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  return ++x;
}

static bool isPow2(unsigned int x) { return (x & (x - 1)) == 0; }

/// The sample's getNumBlocksAndThreads for reduce7, with at least 32
/// threads.
static void getNumBlocksAndThreads(int n, int maxThreads, int &blocks,
                                   int &threads) {
  threads = (n < maxThreads * 2) ? int(nextPow2((n + 1) / 2)) : maxThreads;
  threads = std::max(threads, 32);
  blocks = (n + (threads * 2 - 1)) / (threads * 2);
  blocks = std::min(MaxBlocks, blocks);
}

template <class T, bool P>
static void reduceSized(int size, int threads, int blocks, Pointer<T> in,
                        Pointer<T> out) {
  switch (threads) {
  case 1024:
    return reduce7<T, 1024, P>(in, out, size, blocks);
  case 512:
    return reduce7<T, 512, P>(in, out, size, blocks);
  case 256:
    return reduce7<T, 256, P>(in, out, size, blocks);
  case 128:
    return reduce7<T, 128, P>(in, out, size, blocks);
  case 64:
    return reduce7<T, 64, P>(in, out, size, blocks);
  default:
    return reduce7<T, 32, P>(in, out, size, blocks);
  }
}

template <class T>
static void reduce(int size, int threads, int blocks, Pointer<T> in,
                   Pointer<T> out) {
  if (isPow2(size))
    reduceSized<T, true>(size, threads, blocks, in, out);
  else
    reduceSized<T, false>(size, threads, blocks, in, out);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : (1 << 20);
  int maxThreads = argc > 2 ? std::atoi(argv[2]) : 256;
  if (n <= 0 || n > (1 << 23) || maxThreads < 32 || maxThreads > 1024 ||
      !isPow2(maxThreads)) {
    std::fprintf(stderr, "usage: cs_reduction [n [maxThreads]], 0 < n <= "
                         "2^23, maxThreads a power of two in [32, 1024]\n");
    return 2;
  }

  Pointer<int> d_idata = allocate<int>(n);
  Pointer<int> d_odata = allocate<int>(MaxBlocks);
  Pointer<int> d_intermediateSums = allocate<int>(MaxBlocks);
  long long expected = 0;
  for (int k = 0; k < n; ++k) {
    d_idata[k] = static_cast<int>((unsigned(k + 1) * 2654435761u >> 7) & 0xFF);
    expected += d_idata[k];
  }

  int blocks = 0, threads = 0, firstBlocks = 0, firstThreads = 0;
  int status = 0;
  try {
    getNumBlocksAndThreads(n, maxThreads, blocks, threads);
    firstBlocks = blocks;
    firstThreads = threads;
    reduce<int>(n, threads, blocks, d_idata, d_odata);
    // Reduce the block sums on the device until one is left.
    int s = blocks;
    while (s > 1) {
      getNumBlocksAndThreads(s, maxThreads, blocks, threads);
      for (int k = 0; k < s; ++k)
        d_intermediateSums[k] = d_odata[k];
      reduce<int>(s, threads, blocks, d_intermediateSums, d_odata);
      s = (s + (threads * 2 - 1)) / (threads * 2);
    }
  } catch (const std::exception &e) {
    std::printf("cs_reduction n=%d threads=%d error: %s\n", n, firstThreads,
                e.what());
    status = 1;
  }

  if (status == 0) {
    long long got = d_odata[0];
    if (got == expected) {
      std::printf("cs_reduction n=%d threads=%d blocks=%d sum=%lld verified\n",
                  n, firstThreads, firstBlocks, got);
    } else {
      std::printf("cs_reduction n=%d threads=%d blocks=%d mismatch: sum=%lld, "
                  "expected %lld\n",
                  n, firstThreads, firstBlocks, got, expected);
      status = 1;
    }
  }

  deallocate(d_idata);
  deallocate(d_odata);
  deallocate(d_intermediateSums);
  return status;
}
