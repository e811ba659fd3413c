//===- examples/hec_mpc.cpp - HeCBench mpc: ballot bitmaps, block scan ----===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The compression kernel of MPC (Yang, Mukka, Hesaaraki, Burtscher,
/// Cluster 2015) as HeCBench carries it (src/mpc-cuda/main.cu:
/// MPCcompress and prefixsum), written again in the dialect with the same
/// idioms. Work-groups of TPB = 1024 work-items loop over chunks of 1024
/// 64-bit words (`chunk += gridDim`); per chunk:
///  - the dim-delta `v1 -= sbuf1[tid - dim]` and a bit transpose of each
///    group of 64 words (`lanex = tid & 63`, `warpx = tid & 0x3c0`), then
///    the delta with the previous work-item's word, both through
///    work-group memory;
///  - `unsigned int bitmap = __ballot_sync(0xffffffff, loc)` (loc: the word
///    is nonzero); the work-item with `lanex == 32` stores its warp's bitmap
///    in sbuf2, and the one with `lanex == 0` writes the 64-bit word
///    `(sbuf2[tid + 32] << 32) + bitmap`: two 32-lane ballots make one
///    bitmap of 64 words;
///  - prefixsum(): `warp = tid >> 5`, `lane = tid & 31`, a
///    `__shfl_up_sync(0xffffffff, val, d)` ladder for d < 32 (MPC spells it
///    __shfl_up through a macro), the last lane stores the warp sum in
///    sbuf[warp] (sbuf1 reused, as MPC casts it to int*), warp 0 scans the
///    32 sums, each warp adds the sums before it; the scan gives each
///    nonzero word its place, and the nonzero words are compacted.
/// Changes: MPC chains the chunks' output offsets through a global array
/// that work-groups spin on; here each chunk writes its count and its
/// words to its own place, and the host concatenates them (spinning on
/// another work-group needs them all resident). `long` is unsigned long
/// long here, so the bit arithmetic wraps instead of overflowing.
///
/// Right at 64 as written: the masks are 32 bits and the lane arithmetic is
/// 32-lane (`& 31`, `>> 5`, d < 32), so at 64 lanes (HPP_CPU_MVECTOR=64)
/// each 32-lane half of the mvector is a warp of its own, as on CUDA: the
/// shuffles and the ballot act on the caller's half, the ballot returns
/// that half's bits, and prefixsum's second scan in `if (warp == 0)` runs
/// on one half alone (hpp-rewrite keeps these 32-lane warps on wave64,
/// docs/width-model.md). What goes wrong on wave64 (ORNL/HeCBench issue 180,
/// mpc-hip): the shuffles without a width cross the 32-lane warps,
/// breaking prefixsum, and the 64-bit ballot is cut to `unsigned int`, so
/// the two-warp bitmap trick loses the upper half; the HIP port refused to
/// run when warpSize != 32.
///
/// The words are the bit patterns of a smooth series of doubles. The
/// compressed stream (a header, one bitmap word per 64 words, the nonzero
/// transposed deltas) is compared word by word with a plain C++ compressor.
///
/// Usage: hec_mpc [n [dim [groups]]]   (defaults 100000, 1, 4; 1 <= dim
/// <= 32)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

using namespace hpp;

using Word = unsigned long long;

/// Work-items per work-group and words per chunk ("do not change").
constexpr int TPB = 1024;

/// Inclusive sum of val over the work-group; sbuf holds at least 32 words.
__device(hpp) inline void prefixsum(int &val, Segment<Word> sbuf, int tid) {
  const int warp = tid >> 5;
  const int lane = tid & 31;

  for (int d = 1; d < 32; d *= 2) {
    int tmp = __shfl_up_sync(0xffffffff, val, d);
    if (lane >= d)
      val += tmp;
  }
  if (lane == 31)
    sbuf[warp] = val;

  sbuf.barrier();
  if (warp == 0) {
    int v = static_cast<int>(sbuf[lane]);
    for (int d = 1; d < 32; d *= 2) {
      int tmp = __shfl_up_sync(0xffffffff, v, d);
      if (lane >= d)
        v += tmp;
    }
    sbuf[lane] = v;
  }

  sbuf.barrier();
  if (warp > 0)
    val += static_cast<int>(sbuf[warp - 1]);
}

/// Compresses original[0, n): bitmaps[w] flags the nonzero transposed
/// deltas of words 64w..64w+63; chunk c's nonzero ones go to
/// packed[c * TPB, ...), their number to counts[c].
static void mpcCompress(int n, Pointer<Word> original, Pointer<Word> bitmaps,
                        Pointer<Word> packed, Pointer<int> counts, int dim,
                        int groups) {
  DistArray<Word> smem;
  Region<Word> sbuf1Region = smem.allocRegion(TPB);
  Region<Word> sbuf2Region = smem.allocRegion(TPB);
  Region<Word> topRegion = smem.allocRegion(1);
  parallelFor(Range<1, 1>(Range<1>(std::size_t(groups) * TPB), Range<1>(TPB)),
              smem, [=](Index<1, 1> i, BoundDistArray<Word> a) __device(hpp) {
                Segment<Word> sbuf1 = a(sbuf1Region), sbuf2 = a(sbuf2Region);
                Segment<Word> top = a(topRegion);
                const int tid = static_cast<int>(i.getLocalX());
                const int tidm1 = tid - 1;
                const int tidmdim = tid - dim;
                const int lanex = tid & 63;
                const int warpx = tid & 0x3c0;
                const int bid = static_cast<int>(i.getGroupX());
                const int gdim = static_cast<int>(i.getGroupCountX());
                const int chunksm1 = ((n + (TPB - 1)) / TPB) - 1;

                for (int chunk = bid; chunk <= chunksm1; chunk += gdim) {
                  const int idx = tid + chunk * TPB;

                  Word v1 = 0;
                  if (idx < n) {
                    v1 = original[idx];
                    sbuf1[tid] = v1;
                  }

                  sbuf1.barrier();
                  if (tid >= dim) {
                    if (idx < n)
                      v1 -= sbuf1[tidmdim];
                  }
                  sbuf2[tid] = v1;

                  sbuf1.barrier();
                  Word v2 = 0;
                  for (int k = 63; k >= 0; k--)
                    v2 = (v2 << 1) + ((sbuf2[warpx + k] >> lanex) & 1);
                  sbuf1[tid] = v2;

                  sbuf1.barrier();
                  if (tid > 0)
                    v2 -= sbuf1[tidm1];

                  int loc = 0;
                  if (v2 != 0)
                    loc = 1;

                  unsigned int bitmap = __ballot_sync(0xffffffff, loc);

                  if (lanex == 32)
                    sbuf2[tid] = bitmap;

                  sbuf1.barrier();
                  if (lanex == 0) {
                    if (idx < n)
                      bitmaps[idx / 64] = (sbuf2[tid + 32] << 32) + bitmap;
                  }

                  prefixsum(loc, sbuf1, tid);

                  if (v2 != 0)
                    sbuf2[loc - 1] = v2;

                  if (tid == (TPB - 1)) {
                    counts[chunk] = loc;
                    top[0] = static_cast<Word>(loc);
                  }

                  sbuf1.barrier();
                  if (tid < static_cast<int>(top[0]))
                    packed[std::size_t(chunk) * TPB + tid] = sbuf2[tid];
                }
              });
}

/// The same compression in plain C++.
static std::vector<Word> hostCompress(const std::vector<Word> &in, int dim) {
  const int n = static_cast<int>(in.size());
  const int chunks = (n + TPB - 1) / TPB;
  std::vector<Word> out(1 + (n + 63) / 64);
  out[0] = (Word(n) << 32) + (0x43504d00 - 1) + dim;
  std::vector<Word> v1(TPB), v2(TPB);
  for (int chunk = 0; chunk < chunks; ++chunk) {
    for (int t = 0; t < TPB; ++t) {
      int idx = t + chunk * TPB;
      v1[t] = idx < n ? in[idx] : 0;
      if (t >= dim && idx < n)
        v1[t] -= in[idx - dim];
    }
    for (int t = 0; t < TPB; ++t) {
      Word w = 0;
      for (int k = 63; k >= 0; k--)
        w = (w << 1) + ((v1[(t & 0x3c0) + k] >> (t & 63)) & 1);
      v2[t] = w;
    }
    std::vector<Word> nonzero;
    for (int t = 0; t < TPB; ++t) {
      Word d = t > 0 ? v2[t] - v2[t - 1] : v2[t];
      int idx = t + chunk * TPB;
      if (d != 0) {
        nonzero.push_back(d);
        if (idx / 64 < (n + 63) / 64)
          out[1 + idx / 64] |= Word(1) << (idx & 63);
      }
    }
    out.insert(out.end(), nonzero.begin(), nonzero.end());
  }
  return out;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  int dim = argc > 2 ? std::atoi(argv[2]) : 1;
  int groups = argc > 3 ? std::atoi(argv[3]) : 4;
  if (n <= 0 || n > (1 << 24) || dim < 1 || dim > 32 || groups <= 0) {
    std::fprintf(stderr, "usage: hec_mpc [n [dim [groups]]], 0 < n <= 2^24, "
                         "1 <= dim <= 32, groups > 0\n");
    return 2;
  }
  const int chunks = (n + TPB - 1) / TPB;
  const int words = (n + 63) / 64;
  std::vector<Word> in(n);
  for (int k = 0; k < n; ++k) {
    double x = 1000.0 + (k / 3) * 0.25 + (k % dim) * 8.0;
    std::memcpy(&in[k], &x, sizeof x);
  }
  Pointer<Word> original = allocate<Word>(n);
  Pointer<Word> bitmaps = allocate<Word>(words);
  Pointer<Word> packed = allocate<Word>(std::size_t(chunks) * TPB);
  Pointer<int> counts = allocate<int>(chunks);
  for (int k = 0; k < n; ++k)
    original[k] = in[k];

  try {
    mpcCompress(n, original, bitmaps, packed, counts, dim, groups);
  } catch (const std::exception &e) {
    std::printf("hec_mpc n=%d dim=%d error: %s\n", n, dim, e.what());
    return 1;
  }

  // The stream: header, bitmaps, then each chunk's nonzero words in turn.
  std::vector<Word> got(1 + words);
  got[0] = (Word(n) << 32) + (0x43504d00 - 1) + dim;
  for (int w = 0; w < words; ++w)
    got[1 + w] = bitmaps[w];
  for (int c = 0; c < chunks; ++c)
    for (int k = 0; k < counts[c]; ++k)
      got.push_back(packed[std::size_t(c) * TPB + k]);

  std::vector<Word> expected = hostCompress(in, dim);
  int status = 0;
  if (got.size() != expected.size()) {
    std::printf("hec_mpc n=%d dim=%d mismatch: %zu words, expected %zu\n", n,
                dim, got.size(), expected.size());
    status = 1;
  }
  Word checksum = 0;
  for (std::size_t k = 0; k < got.size() && status == 0; ++k) {
    checksum = checksum * 31 + got[k];
    if (got[k] != expected[k]) {
      std::printf("hec_mpc n=%d dim=%d mismatch at word %zu: %#llx, expected "
                  "%#llx\n",
                  n, dim, k, got[k], expected[k]);
      status = 1;
    }
  }
  if (status == 0)
    std::printf("hec_mpc n=%d dim=%d words=%zu checksum=%llu verified\n", n,
                dim, got.size(), checksum);

  deallocate(original);
  deallocate(bitmaps);
  deallocate(packed);
  deallocate(counts);
  return status;
}
