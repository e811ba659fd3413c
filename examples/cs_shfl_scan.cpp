//===- examples/cs_shfl_scan.cpp - cuda-samples' shfl_scan prefix sum -----===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Inclusive prefix sum over several work-groups, in the shape of NVIDIA
/// cuda-samples' shfl_scan (Samples/2_Concepts_and_Techniques/shfl_scan/
/// shfl_scan.cu: shfl_scan_test, uniform_add, shuffle_simple_test),
/// written again in the dialect with the same idioms:
///  - `lane_id = id % warpSize`, `warp_id = threadIdx.x / warpSize`;
///  - the warp scan loop `for (i = 1; i <= width; i *= 2) { n =
///    __shfl_up_sync(0xffffffff, value, i, width); if (lane_id >= i)
///    value += n; }`, with width = 32 passed from the host;
///  - the warp's last lane (`threadIdx.x % warpSize == warpSize - 1`)
///    stores the warp sum in work-group memory, sized on the host as
///    blockSize / 32 ints; the first warp scans those sums the same way,
///    with width blockDim / warpSize; each warp adds the sum of the warps
///    before it; the last work-item stores the block total;
///  - a second launch scans the block totals, and uniform_add adds them
///    to the blocks after the first (one work-item loads the total into a
///    one-int region, a barrier, every work-item adds it).
/// Two changes: the sample scans the warp sums in `if (warp_id == 0 &&
/// lane_id < nwarps)` under the mask (1 << nwarps) - 1; on AMD every
/// active lane of a wavefront must take part (the reference runtime
/// reports it), so here the whole first warp scans, the lanes past the
/// warp count with 0, under 0xffffffff. And the totals are scanned by one
/// work-group of 256, zero-padded (the sample uses min(count, 256), which
/// needs count / 32 to be a power of two).
///
/// Not right at 64: the pattern mixes warpSize with a 32-lane width. Under
/// CUDA semantics at 64 lanes (HPP_CPU_MVECTOR=64), the shuffles act on
/// 32-lane segments while lane_id runs to 63: lanes 32-63 get their own
/// value back where the source leaves their segment, and add it anyway
/// (lane_id >= i), and only lane 63 stores a warp sum, at threadIdx.x / 64.
/// The program then prints a mismatch line and exits 1. A naive HIP port
/// does the same on wave64 (warpSize 64, width 32). The last step of the
/// loop, i = width = 32, is a shuffle by 32 in a 32-lane segment: CUDA
/// gives every lane its own value (and lane_id >= 32 is never true at 32
/// lanes), and so does the reference runtime.
///
/// Compared element by element with std::partial_sum.
///
/// Usage: cs_shfl_scan [n]   (n defaults to 65536, the sample's size; at
/// most 65536 = 256 work-groups of 256)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <numeric>
#include <vector>

using namespace hpp;

/// Work-items per work-group (the sample's blockSize).
constexpr int BlockSize = 256;

/// shfl_scan_test: scans data[0, count) in work-groups of BlockSize, in
/// place; when writePartials, partial_sums[g] = the total of group g.
static void shflScanTest(Pointer<int> data, int count, int width,
                         Pointer<int> partial_sums, bool writePartials) {
  int nWarps = BlockSize / 32;
  DistArray<int> smem;
  Region<int> sumsRegion = smem.allocRegion(nWarps);
  parallelFor(Range<1, 1>(Range<1>(count), Range<1>(BlockSize)), smem,
              [=](Index<1, 1> idx, BoundDistArray<int> a) __device(hpp) {
                Segment<int> sums = a(sumsRegion);
                const int threadIdxX = static_cast<int>(idx.getLocalX());
                const int blockDimX = static_cast<int>(idx.getLocalSizeX());
                const int blockIdxX = static_cast<int>(idx.getGroupX());
                int id = ((blockIdxX * blockDimX) + threadIdxX);
                int lane_id = id % warpSize;
                // determine a warp_id within a block
                int warp_id = threadIdxX / warpSize;

                int value = data[id];
                for (int i = 1; i <= width; i *= 2) {
                  unsigned int mask = 0xffffffff;
                  int n = __shfl_up_sync(mask, value, i, width);
                  if (lane_id >= i)
                    value += n;
                }

                // The warp's last lane holds its sum.
                if (threadIdxX % warpSize == warpSize - 1)
                  sums[warp_id] = value;
                sums.barrier();

                // The first warp scans the warp sums.
                if (warp_id == 0) {
                  int nwarps = blockDimX / warpSize;
                  int warp_sum = lane_id < nwarps ? sums[lane_id] : 0;
                  for (int i = 1; i <= nwarps; i *= 2) {
                    int n = __shfl_up_sync(0xffffffff, warp_sum, i, nwarps);
                    if (lane_id >= i)
                      warp_sum += n;
                  }
                  if (lane_id < nwarps)
                    sums[lane_id] = warp_sum;
                }
                sums.barrier();

                // Add the sum of the warps before this one.
                int blockSum = 0;
                if (warp_id > 0)
                  blockSum = sums[warp_id - 1];
                value += blockSum;
                data[id] = value;

                if (writePartials && threadIdxX == blockDimX - 1)
                  partial_sums[blockIdxX] = value;
              });
}

/// uniform_add: data[(g + 1) * BlockSize + t] += partial_sums[g] for the
/// groups g < groups.
static void uniformAdd(Pointer<int> data, Pointer<int> partial_sums,
                       int groups) {
  DistArray<int> smem;
  Region<int> bufRegion = smem.allocRegion(1);
  parallelFor(Range<1, 1>(Range<1>(groups * BlockSize), Range<1>(BlockSize)),
              smem, [=](Index<1, 1> idx, BoundDistArray<int> a) __device(hpp) {
                Segment<int> buf = a(bufRegion);
                const int threadIdxX = static_cast<int>(idx.getLocalX());
                const int blockIdxX = static_cast<int>(idx.getGroupX());
                int id = ((blockIdxX * BlockSize) + threadIdxX);
                if (threadIdxX == 0)
                  buf[0] = partial_sums[blockIdxX];
                buf.barrier();
                data[BlockSize + id] += buf[0];
              });
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 65536;
  if (n <= 0 || n > BlockSize * BlockSize) {
    std::fprintf(stderr, "usage: cs_shfl_scan [n], 0 < n <= 65536\n");
    return 2;
  }
  // Whole work-groups, zero-padded; the totals in one zero-padded group.
  int gridSize = (n + BlockSize - 1) / BlockSize;
  int padded = gridSize * BlockSize;
  Pointer<int> data = allocate<int>(padded);
  Pointer<int> partial_sums = allocate<int>(BlockSize);
  std::vector<int> in(n);
  for (int k = 0; k < n; ++k)
    data[k] = in[k] = (k * 7 + k / 13) % 11 - 4;

  int status = 0;
  try {
    shflScanTest(data, padded, 32, partial_sums, true);
    shflScanTest(partial_sums, BlockSize, 32, partial_sums, false);
    if (gridSize > 1)
      uniformAdd(data, partial_sums, gridSize - 1);
  } catch (const std::exception &e) {
    std::printf("cs_shfl_scan n=%d error: %s\n", n, e.what());
    status = 1;
  }

  if (status == 0) {
    std::vector<int> expected(n);
    std::partial_sum(in.begin(), in.end(), expected.begin());
    long long checksum = 0;
    for (int k = 0; k < n; ++k) {
      checksum += data[k];
      if (data[k] != expected[k]) {
        std::printf("cs_shfl_scan n=%d mismatch at %d: got %d, expected %d\n",
                    n, k, data[k], expected[k]);
        status = 1;
        break;
      }
    }
    if (status == 0)
      std::printf("cs_shfl_scan n=%d last=%d checksum=%lld verified\n", n,
                  data[n - 1], checksum);
  }

  deallocate(data);
  deallocate(partial_sums);
  return status;
}
