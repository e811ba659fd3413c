//===- bench/warp_selftest.cpp - The runtime's warp operations on a GPU ---===//
//
// Part of hpp-rewrite. Benchmark / self-test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs every warp operation of the device runtime (hpp::shflSync & co.,
/// runtime/hpp/warp.h) in a kernel of the shape hpp-rewrite produces and
/// compares each work-item's result with a host model of CUDA's semantics
/// (sub-partitions of Width lanes; shflUp/Down keep the own value at the
/// segment edge; shflXor reads lower segments and keeps the own value above
/// its segment), at the device's own warp width (32 on CUDA, 32 or 64 on
/// HIP, HPP_CPU_MVECTOR on the CPU backend). Covers widths 8/16/full, 2-,
/// 3-, 4- and 8-byte types, ballot with full and per-16-lane masks, the
/// votes, the active mask (also in a divergent branch on GPUs) and the bit
/// functions, and the reduction and scan loops ported CUDA code writes.
///
/// The same checks then run with hpp::warp32's operations (a 32-lane logical
/// warp: the warp on CUDA and wave32, each half of a 64-lane wavefront or
/// CPU mvector; 32-bit masks; __popc/__ffs/__clz on the ballots) against
/// the same model of a 32-lane warp per half, plus warp32's own checks:
/// lane and offset arguments of 32 or more and at or past Width, votes that
/// hold in one half only, and a `k <= 32` scan loop. Its lines start with
/// "warp32", after the first table's summary line. The checks, the values
/// and the host model are in bench/warp_selftest.h.
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -x cu -I runtime -I include \
///        bench/warp_selftest.cpp -o warp_selftest
///   hipcc -std=c++17 -O3 --offload-arch=gfx90a -I runtime -I include \
///        bench/warp_selftest.cpp -o warp_selftest
///   g++ -std=c++17 -O2 -pthread -I runtime -I include \
///        bench/warp_selftest.cpp -o warp_selftest      (CPU backend)
///   ./warp_selftest
///
/// Prints a PASS or FAIL line per check (a FAIL names the first wrong
/// work-item, its lane, the value and the expected one) and a summary per
/// table, and exits 0 only when every check passes (1 on a failed check, 2
/// on a runtime error).
///
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>

#include "warp_selftest.h"

#include <cstdio>

using namespace selftest;

namespace {

/// Forwarders to namespace NS's shuffles, ballot, votes and active mask
/// (with or without a width), so that one body runs both tables.
#define SELFTEST_OPS(NS)                                                       \
  template <class T, class... A>                                               \
  static __device__ T shfl(Mask M, T V, A... Args) {                           \
    return NS::shflSync(M, V, Args...);                                        \
  }                                                                            \
  template <class T, class... A>                                               \
  static __device__ T up(Mask M, T V, A... Args) {                             \
    return NS::shflUpSync(M, V, Args...);                                      \
  }                                                                            \
  template <class T, class... A>                                               \
  static __device__ T down(Mask M, T V, A... Args) {                           \
    return NS::shflDownSync(M, V, Args...);                                    \
  }                                                                            \
  template <class T, class... A>                                               \
  static __device__ T bfly(Mask M, T V, A... Args) {                           \
    return NS::shflXorSync(M, V, Args...);                                     \
  }                                                                            \
  static __device__ Mask ballot(Mask M, int P) {                               \
    return NS::ballotSync(M, P);                                               \
  }                                                                            \
  static __device__ int any(Mask M, int P) { return NS::anySync(M, P); }       \
  static __device__ int all(Mask M, int P) { return NS::allSync(M, P); }       \
  static __device__ Mask active() { return NS::activeMask(); }

/// The runtime's operations at the device's warp width (first table).
struct WideOps {
  using Mask = hpp::LaneMask;
  static constexpr bool Warp32 = false;
  static __device__ int width() { return hpp::getWarpSize(); }
  static __device__ Mask full() { return hpp::getWarpFullMask(); }
  static __device__ int popc(Mask M) { return hpp::popcMask(M); }
  static __device__ int ffs(Mask M) { return hpp::ffsMask(M); }
  static __device__ int clz(Mask M) { return hpp::clzMask(M); }
  SELFTEST_OPS(hpp)
};

/// hpp::warp32's, with CUDA's bit functions on its `unsigned` masks, as
/// kernels written for 32 lanes keep them (second table).
struct Warp32Ops {
  using Mask = unsigned;
  static constexpr bool Warp32 = true;
  static __device__ int width() { return hpp::warp32::size; }
  static __device__ Mask full() { return 0xffffffffu; }
  static __device__ int popc(Mask M) { return int(__popc(M)); }
  static __device__ int ffs(Mask M) { return int(__ffs(M)); }
  static __device__ int clz(Mask M) { return int(__clz(M)); }
  SELFTEST_OPS(hpp::warp32)
};
#undef SELFTEST_OPS

/// Every check of one table for work-item \p K (local id \p Local): check
/// c's result goes to Out[c * n].
template <class Ops>
__device__ void runChecks(unsigned long long *Out, int n, int K, int Local) {
  using Mask = typename Ops::Mask;
  const int Ws = Ops::width();
  const Mask Full = Ops::full();
  const int Lane = Local % Ws;
#define PUT(C, V) Out[size_t(C) * n] = bits(V)

  PUT(IdxInt, Ops::shfl(Full, valInt(K), Lane * 7 + 3));
  PUT(IdxUnsignedW8, Ops::shfl(Full, unsigned(valInt(K)), Lane * 5 + 1, 8));
  PUT(IdxFloatW16, Ops::shfl(Full, valFloat(K), Lane * 3 + 2, 16));
  PUT(IdxNegativeW16, Ops::shfl(Full, valInt(K), -1 - Lane, 16));
  PUT(IdxShortBroadcast, Ops::shfl(Full, valShort(K), 0));
  PUT(IdxRgbReverse, Ops::shfl(Full, valRgb(K), Ws - 1 - Lane));

  PUT(UpInt, Ops::up(Full, valInt(K), 3u));
  PUT(UpDoubleW8, Ops::up(Full, valDouble(K), 2u, 8));
  PUT(UpLongLongW16, Ops::up(Full, valLongLong(K), 5u, 16));
  PUT(UpPastSegmentW8, Ops::up(Full, valInt(K), 9u, 8));

  PUT(DownInt, Ops::down(Full, valInt(K), 4u));
  PUT(DownUnsignedLongLongW8, Ops::down(Full, valULongLong(K), 3u, 8));
  PUT(DownFloatW16, Ops::down(Full, valFloat(K), 7u, 16));
  PUT(DownTaggedW16, Ops::down(Full, valTagged(K), 1u, 16));
  PUT(DownDoubleHalfWarp, Ops::down(Full, valDouble(K), unsigned(Ws / 2)));

  PUT(XorInt, Ops::bfly(Full, valInt(K), 1));
  PUT(XorDouble, Ops::bfly(Full, valDouble(K), 5));
  PUT(XorIntoLowerSegmentW8, Ops::bfly(Full, valInt(K), 8, 8));
  PUT(XorLongLongW16, Ops::bfly(Full, valLongLong(K), 6, 16));
  PUT(XorReverseWarp, Ops::bfly(Full, valULongLong(K), Ws - 1));

  const Mask B = Ops::ballot(Full, ballotPred(K));
  PUT(Ballot, B);
  PUT(BallotPopc, Ops::popc(B));
  PUT(BallotFfs, Ops::ffs(B));
  PUT(BallotClz, Ops::clz(B));
  // Each lane names its own 16-lane segment: the masks of the lanes that
  // execute together are equal or disjoint, as CUDA requires.
  const Mask Seg16 = Mask(0xffff) << (Lane & ~15);
  PUT(BallotSegment16, Ops::ballot(Seg16, segmentPred(K)));
  PUT(AnyFull, int(Ops::any(Full, Lane == 5) != 0) |
                   int(Ops::any(Full, 0) != 0) << 1 |
                   int(Ops::any(Full, ballotPred(K)) != 0) << 2);
  PUT(AllFull, int(Ops::all(Full, 1) != 0) |
                   int(Ops::all(Full, Lane != 7) != 0) << 1 |
                   int(Ops::all(Full, Lane < Ws) != 0) << 2);
  PUT(VotesSegment16, int(Ops::any(Seg16, Lane == 19) != 0) |
                          int(Ops::all(Seg16, evenSegmentPred(Lane)) != 0)
                              << 1);
  PUT(ActiveFull, Ops::active());
#if !defined(HPP_BACKEND_CPU)
  // (The CPU backend runs collectives reached by part of a warp as an
  // error, the AMD divergence rule; the host skips this check there.)
  Mask Active = 0;
  if (Lane < 16)
    Active = Ops::active();
  PUT(ActiveDivergent, Active);
#endif
  const Mask One = 1;
  PUT(MaskBits, (unsigned long long)Ops::popc(Full) |
                    (unsigned long long)Ops::ffs(One << Lane) << 8 |
                    (unsigned long long)Ops::clz(One << Lane) << 16 |
                    (unsigned long long)Ops::clz(0) << 24 |
                    (unsigned long long)Ops::ffs(0) << 32 |
                    (unsigned long long)Ops::clz(Full) << 40);
  PUT(WarpSize, Ws);

  // The loops of ported CUDA code, as the rewriter widens them (or keeps
  // them at 32 lanes).
  int Sum = valInt(K);
  for (int O = Ops::width() / 2; O > 0; O /= 2)
    Sum += Ops::down(Ops::full(), Sum, unsigned(O));
  PUT(ReduceDownInt, Sum);
  double SumD = valDouble(K);
  for (int O = Ws / 2; O > 0; O /= 2)
    SumD += Ops::bfly(Full, SumD, O);
  PUT(ReduceXorDouble, SumD);
  int Sum8 = valInt(K);
  for (int O = 4; O > 0; O /= 2)
    Sum8 += Ops::bfly(Full, Sum8, O, 8);
  PUT(ReduceXorIntW8, Sum8);
  float SumF = valFloat(K);
  for (int O = 8; O > 0; O /= 2)
    SumF += Ops::bfly(Full, SumF, O, 16);
  PUT(ReduceXorFloatW16, SumF);
  int Scan = valInt(K);
  for (int O = 1; O < 16; O *= 2) {
    const int T = Ops::up(Full, Scan, unsigned(O), 16);
    if ((Lane & 15) >= O)
      Scan += T;
  }
  PUT(ScanUpIntW16, Scan);
  long long ScanL = valLongLong(K);
  for (int O = 1; O < Ws; O *= 2) {
    const long long T = Ops::up(Full, ScanL, unsigned(O));
    if (Lane >= O)
      ScanL += T;
  }
  PUT(ScanUpLongLongFull, ScanL);

  if constexpr (Ops::Warp32) {
    // Lane arguments of 32 and more (counted modulo 32), offsets at or
    // past Width: never a lane of the other half.
    PUT(IdxPast32, Ops::shfl(Full, valInt(K), Lane + 35));
    PUT(IdxShortPast32W8, Ops::shfl(Full, valShort(K), 37, 8));
    PUT(UpDelta32, Ops::up(Full, valDouble(K), 32u));
    PUT(UpDelta16W16, Ops::up(Full, valLongLong(K), 16u, 16));
    PUT(UpDelta40W16, Ops::up(Full, valInt(K), 40u, 16));
    PUT(DownDelta33, Ops::down(Full, valFloat(K), 33u));
    PUT(DownDelta20W16, Ops::down(Full, valTagged(K), 20u, 16));
    PUT(Xor16W16, Ops::bfly(Full, valInt(K), 16, 16));
    PUT(Xor32, Ops::bfly(Full, valULongLong(K), 32));
    PUT(Xor48W16, Ops::bfly(Full, valInt(K), 48, 16));
    // Each half of 64 work-items votes on its own.
    const int InGroup = K & 63;
    PUT(VotesOneHalf,
        (unsigned long long)Ops::ballot(Full, InGroup >= 48) |
            (unsigned long long)Ops::any(Full, InGroup == 40) << 32 |
            (unsigned long long)Ops::all(Full, InGroup < 32) << 33);
    int ScanK = valInt(K);
    for (int O = 1; O <= 32; O *= 2) {
      const int T = Ops::up(Full, ScanK, unsigned(O));
      if (Lane >= O)
        ScanK += T;
    }
    PUT(ScanUpTo32, ScanK);
    int Sum16 = valInt(K);
    for (int O = 8; O > 0; O /= 2)
      Sum16 += Ops::down(Full, Sum16, unsigned(O), 16);
    PUT(ReduceDownW16, Sum16);
#if !defined(HPP_BACKEND_CPU)
    // Only the lower 32 of each 64 work-items take part: a warp of their
    // own on CUDA and wave32, half a wavefront on wave64. (The CPU backend
    // runs a collective reached by part of a mvector as an error.)
    unsigned long long Lower = 0;
    if ((K & 32) == 0) {
      int S = valInt(K);
      for (int O = 16; O > 0; O /= 2)
        S += Ops::bfly(Full, S, O);
      Lower = (unsigned long long)(unsigned)S |
              (unsigned long long)Ops::ballot(Full, ballotPred(K)) << 32;
    }
    PUT(LowerHalfOnly, Lower);
#endif
  }
#undef PUT
}

} // namespace

/// Both tables; work-item k writes table t's check c to
/// out[(t * NumChecks + c) * n + k]. The range is a multiple of the
/// work-group size, itself a multiple of 64, so every warp is full and
/// lane = local id mod warp width.
__global__ void
hpp_warp_selftest_pfor0(hpp::Range<1, 1> hpp_range,
                        const hpp::Pointer<unsigned long long> out,
                        const int n) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    const int K = int(i.getX()), Local = int(i.getLocalX());
    runChecks<WideOps>(&out[K], n, K, Local);
    runChecks<Warp32Ops>(&out[size_t(NumChecks) * n + K], n, K, Local);
  }
}

namespace {

/// Compares table \p Table of \p Out with \p E for checks [0, \p Count),
/// prints a line per check and a summary; returns the number of failures.
int report(const hpp::Pointer<unsigned long long> &Out, int Table, int Count,
           const std::vector<std::vector<unsigned long long>> &E, int N, int Ws,
           const char *Prefix) {
  int Failed = 0, Skipped = 0, Checked = 0;
  for (int C = 0; C < Count; ++C) {
    if (C == NumWideChecks)
      continue;
    ++Checked;
#if defined(HPP_BACKEND_CPU)
    if (C == ActiveDivergent || C == LowerHalfOnly) {
      std::printf("SKIP %s%s (CPU backend)\n", Prefix, CheckNames[C]);
      ++Skipped;
      continue;
    }
#endif
    const size_t Row = (size_t(Table) * NumChecks + C) * N;
    int Bad = -1;
    for (int K = 0; K < N && Bad < 0; ++K)
      if (Out[Row + K] != E[C][K])
        Bad = K;
    if (Bad < 0) {
      std::printf("PASS %s%s\n", Prefix, CheckNames[C]);
      continue;
    }
    ++Failed;
    std::printf("FAIL %s%s: work-item %d (lane %d): 0x%llx, expected 0x%llx\n",
                Prefix, CheckNames[C], Bad, Bad % Ws,
                (unsigned long long)Out[Row + Bad],
                (unsigned long long)E[C][Bad]);
  }
  std::printf("%s%s: %d passed, %d failed, %d skipped\n", Prefix,
              Failed ? "SOME FAILED" : "ALL PASSED", Checked - Failed - Skipped,
              Failed, Skipped);
  return Failed;
}

} // namespace

int main() {
  try {
    const int N = 1024, Local = 256;
    const int Ws = hpp::getWarpSize(hpp::getDevice());
    std::printf(
        "warp selftest: warp width %d, %d-bit lane masks, %d work-items "
        "in groups of %d\n",
        Ws, int(sizeof(hpp::LaneMask) * 8), N, Local);
    if (Ws != 32 && Ws != 64) {
      std::printf("FAIL warp width %d is neither 32 nor 64\n", Ws);
      return 1;
    }
    hpp::Pointer<unsigned long long> Out =
        hpp::allocate<unsigned long long>(size_t(2) * NumChecks * N);
    hpp::launchKernel(hpp_warp_selftest_pfor0,
                      hpp::Range<1, 1>(hpp::Range<1>(N), hpp::Range<1>(Local)),
                      Out, N);
    int Failed = report(Out, 0, NumWideChecks,
                        expected(N, Ws, int(sizeof(hpp::LaneMask) * 8), false),
                        N, Ws, "");
    std::printf("warp32 selftest: %d-lane logical warps (%s), 32-bit lane "
                "masks\n",
                hpp::warp32::size,
                Ws == 64 ? "each half of the warp" : "the warp");
    Failed +=
        report(Out, 1, NumChecks, expected(N, 32, 32, true), N, 32, "warp32 ");
    hpp::deallocate(Out);
    return Failed ? 1 : 0;
  } catch (const hpp::RuntimeError &E) {
    std::printf("FAIL runtime error: %s\n", E.what());
    return 2;
  }
}
