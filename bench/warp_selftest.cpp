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
///   nvcc -std=c++17 -O3 -arch=sm_90 -x cu -I runtime -I include \
///        bench/warp_selftest.cpp -o warp_selftest
///   hipcc -std=c++17 -O3 --offload-arch=gfx90a -I runtime -I include \
///        bench/warp_selftest.cpp -o warp_selftest
///   g++ -std=c++17 -O2 -pthread -I runtime -I include \
///        bench/warp_selftest.cpp -o warp_selftest      (CPU backend)
///   ./warp_selftest
///
/// Prints a PASS or FAIL line per check (a FAIL names the first wrong
/// work-item, its lane, the value and the expected one) and exits 0 only
/// when every check passes (1 on a failed check, 2 on a runtime error).
///
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

/// The checks, in the order of the output table.
enum Check {
  IdxInt,
  IdxUnsignedW8,
  IdxFloatW16,
  IdxNegativeW16,
  IdxShortBroadcast,
  IdxRgbReverse,
  UpInt,
  UpDoubleW8,
  UpLongLongW16,
  UpPastSegmentW8,
  DownInt,
  DownUnsignedLongLongW8,
  DownFloatW16,
  DownTaggedW16,
  DownDoubleHalfWarp,
  XorInt,
  XorDouble,
  XorIntoLowerSegmentW8,
  XorLongLongW16,
  XorReverseWarp,
  Ballot,
  BallotPopc,
  BallotFfs,
  BallotClz,
  BallotSegment16,
  AnyFull,
  AllFull,
  VotesSegment16,
  ActiveFull,
  ActiveDivergent,
  MaskBits,
  WarpSize,
  ReduceDownInt,
  ReduceXorDouble,
  ReduceXorIntW8,
  ReduceXorFloatW16,
  ScanUpIntW16,
  ScanUpLongLongFull,
  NumChecks
};

const char *const CheckNames[NumChecks] = {
    "shfl idx int",
    "shfl idx unsigned width 8",
    "shfl idx float width 16",
    "shfl idx negative lane width 16",
    "shfl idx short broadcast",
    "shfl idx 3-byte struct reversed",
    "shfl up int",
    "shfl up double width 8",
    "shfl up long long width 16",
    "shfl up delta 9 width 8 (own value)",
    "shfl down int",
    "shfl down unsigned long long width 8",
    "shfl down float width 16",
    "shfl down 8-byte struct width 16",
    "shfl down double by half the warp",
    "shfl xor int",
    "shfl xor double",
    "shfl xor 8 width 8 (lower segment / own value)",
    "shfl xor long long width 16",
    "shfl xor warp-1 (reverse)",
    "ballot full mask",
    "popc of ballot",
    "ffs of ballot",
    "clz of ballot",
    "ballot per 16-lane mask",
    "any full mask",
    "all full mask",
    "any/all per 16-lane mask",
    "activeMask full warp",
    "activeMask in divergent branch",
    "popc/ffs/clz of lane masks",
    "device warp size",
    "reduction shfl down (getWarpSize()/2 ... 1)",
    "reduction shfl xor double",
    "reduction shfl xor int width 8",
    "reduction shfl xor float width 16",
    "inclusive scan shfl up int width 16",
    "inclusive scan shfl up long long full warp",
};

/// Three bytes: a shuffle moves it in one 32-bit word.
struct Rgb {
  unsigned char R, G, B;
};
/// Eight bytes of two kinds: two 32-bit words. (The GPU backends also take
/// types with no default constructor: test/runtime/Inputs/gpu-warp.cpp.)
struct Tagged {
  Tagged() = default;
  __host__ __device__ Tagged(int K, float V) : Key(K), Value(V) {}
  int Key;
  float Value;
};

/// The work-item values the shuffles move (distinct per item).
__host__ __device__ inline int valInt(int K) { return K * 37 - 5000; }
__host__ __device__ inline float valFloat(int K) { return float(K) * 0.5f + 0.25f; }
__host__ __device__ inline double valDouble(int K) { return double(K) * 1e10 + 0.5; }
__host__ __device__ inline long long valLongLong(int K) {
  return (long long)K * 0x100000001LL - 7;
}
__host__ __device__ inline unsigned long long valULongLong(int K) {
  return ~0ull - (unsigned long long)K * 0x123456789ull;
}
__host__ __device__ inline short valShort(int K) { return short(K * 3 - 100); }
__host__ __device__ inline Rgb valRgb(int K) {
  return Rgb{(unsigned char)K, (unsigned char)(K >> 8), (unsigned char)(K * 7)};
}
__host__ __device__ inline Tagged valTagged(int K) {
  return Tagged(K + 1, float(K) * 0.125f);
}
/// Predicates of the ballot and vote checks.
__host__ __device__ inline int ballotPred(int K) { return valInt(K) % 3 == 0; }
__host__ __device__ inline int segmentPred(int K) { return (valInt(K) & 4) != 0; }
/// True on every lane of even 16-lane segments, not on odd ones.
__host__ __device__ inline int evenSegmentPred(int Lane) {
  return (Lane >> 4) % 2 == 0 || Lane % 16 != 3;
}

/// \p V's bytes, zero-extended to 64 bits.
template <class T> __host__ __device__ unsigned long long bits(const T &V) {
  static_assert(sizeof(T) <= 8, "at most 8 bytes");
  unsigned long long R = 0;
  memcpy(&R, &V, sizeof(T));
  return R;
}

} // namespace

/// Every check; work-item k writes check c's result to out[c * n + k]. The
/// range is a multiple of the work-group size, itself a multiple of 64, so
/// every warp is full and lane = local id mod warp width.
__global__ void hpp_warp_selftest_pfor0(hpp::Range<1, 1> hpp_range,
                                        const hpp::Pointer<unsigned long long> out,
                                        const int n) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    const int Ws = hpp::getWarpSize();
    const hpp::LaneMask Full = hpp::getWarpFullMask();
    const int Lane = int(i.getLocalX() % Ws);
    const int K = int(i.getX());
    unsigned long long *Out = &out[K];
#define PUT(C, V) Out[size_t(C) * n] = bits(V)

    PUT(IdxInt, hpp::shflSync(Full, valInt(K), Lane * 7 + 3));
    PUT(IdxUnsignedW8, hpp::shflSync(Full, unsigned(valInt(K)), Lane * 5 + 1, 8));
    PUT(IdxFloatW16, hpp::shflSync(Full, valFloat(K), Lane * 3 + 2, 16));
    PUT(IdxNegativeW16, hpp::shflSync(Full, valInt(K), -1 - Lane, 16));
    PUT(IdxShortBroadcast, hpp::shflSync(Full, valShort(K), 0));
    PUT(IdxRgbReverse, hpp::shflSync(Full, valRgb(K), Ws - 1 - Lane));

    PUT(UpInt, hpp::shflUpSync(Full, valInt(K), 3));
    PUT(UpDoubleW8, hpp::shflUpSync(Full, valDouble(K), 2, 8));
    PUT(UpLongLongW16, hpp::shflUpSync(Full, valLongLong(K), 5, 16));
    PUT(UpPastSegmentW8, hpp::shflUpSync(Full, valInt(K), 9, 8));

    PUT(DownInt, hpp::shflDownSync(Full, valInt(K), 4));
    PUT(DownUnsignedLongLongW8, hpp::shflDownSync(Full, valULongLong(K), 3, 8));
    PUT(DownFloatW16, hpp::shflDownSync(Full, valFloat(K), 7, 16));
    PUT(DownTaggedW16, hpp::shflDownSync(Full, valTagged(K), 1, 16));
    PUT(DownDoubleHalfWarp, hpp::shflDownSync(Full, valDouble(K), Ws / 2));

    PUT(XorInt, hpp::shflXorSync(Full, valInt(K), 1));
    PUT(XorDouble, hpp::shflXorSync(Full, valDouble(K), 5));
    PUT(XorIntoLowerSegmentW8, hpp::shflXorSync(Full, valInt(K), 8, 8));
    PUT(XorLongLongW16, hpp::shflXorSync(Full, valLongLong(K), 6, 16));
    PUT(XorReverseWarp, hpp::shflXorSync(Full, valULongLong(K), Ws - 1));

    const hpp::LaneMask B = hpp::ballotSync(Full, ballotPred(K));
    PUT(Ballot, B);
    PUT(BallotPopc, hpp::popcMask(B));
    PUT(BallotFfs, hpp::ffsMask(B));
    PUT(BallotClz, hpp::clzMask(B));
    // Each lane names its own 16-lane segment: the masks of the lanes that
    // execute together are equal or disjoint, as CUDA requires.
    const hpp::LaneMask Seg16 = hpp::LaneMask(0xffff) << (Lane & ~15);
    PUT(BallotSegment16, hpp::ballotSync(Seg16, segmentPred(K)));
    PUT(AnyFull, int(hpp::anySync(Full, Lane == 5) != 0) |
                     int(hpp::anySync(Full, 0) != 0) << 1 |
                     int(hpp::anySync(Full, ballotPred(K)) != 0) << 2);
    PUT(AllFull, int(hpp::allSync(Full, 1) != 0) |
                     int(hpp::allSync(Full, Lane != 7) != 0) << 1 |
                     int(hpp::allSync(Full, Lane < Ws) != 0) << 2);
    PUT(VotesSegment16, int(hpp::anySync(Seg16, Lane == 19) != 0) |
                            int(hpp::allSync(Seg16, evenSegmentPred(Lane)) != 0)
                                << 1);
    PUT(ActiveFull, hpp::activeMask());
#if !defined(HPP_BACKEND_CPU)
    // (The CPU backend runs collectives reached by part of a warp as an
    // error, the AMD divergence rule; the host skips this check there.)
    hpp::LaneMask Active = 0;
    if (Lane < 16)
      Active = hpp::activeMask();
    PUT(ActiveDivergent, Active);
#endif
    const hpp::LaneMask One = 1;
    PUT(MaskBits, (unsigned long long)hpp::popcMask(Full) |
                      (unsigned long long)hpp::ffsMask(One << Lane) << 8 |
                      (unsigned long long)hpp::clzMask(One << Lane) << 16 |
                      (unsigned long long)hpp::clzMask(0) << 24 |
                      (unsigned long long)hpp::ffsMask(0) << 32 |
                      (unsigned long long)hpp::clzMask(Full) << 40);
    PUT(WarpSize, Ws);

    // The loops of ported CUDA code, as the rewriter widens them.
    int Sum = valInt(K);
    for (int O = hpp::getWarpSize() / 2; O > 0; O /= 2)
      Sum += hpp::shflDownSync(hpp::getWarpFullMask(), Sum, O);
    PUT(ReduceDownInt, Sum);
    double SumD = valDouble(K);
    for (int O = Ws / 2; O > 0; O /= 2)
      SumD += hpp::shflXorSync(Full, SumD, O);
    PUT(ReduceXorDouble, SumD);
    int Sum8 = valInt(K);
    for (int O = 4; O > 0; O /= 2)
      Sum8 += hpp::shflXorSync(Full, Sum8, O, 8);
    PUT(ReduceXorIntW8, Sum8);
    float SumF = valFloat(K);
    for (int O = 8; O > 0; O /= 2)
      SumF += hpp::shflXorSync(Full, SumF, O, 16);
    PUT(ReduceXorFloatW16, SumF);
    int Scan = valInt(K);
    for (int O = 1; O < 16; O *= 2) {
      const int T = hpp::shflUpSync(Full, Scan, O, 16);
      if ((Lane & 15) >= O)
        Scan += T;
    }
    PUT(ScanUpIntW16, Scan);
    long long ScanL = valLongLong(K);
    for (int O = 1; O < Ws; O *= 2) {
      const long long T = hpp::shflUpSync(Full, ScanL, O);
      if (Lane >= O)
        ScanL += T;
    }
    PUT(ScanUpLongLongFull, ScanL);
#undef PUT
  }
}

namespace {

/// The host model: CUDA's documented semantics for one warp of Ws lanes.
struct WarpModel {
  int Ws;

  int segment(int Lane, int Width) const { return Lane / Width * Width; }
  /// __shfl_sync: lane srcLane % Width of the own segment.
  int idx(int Lane, int Src, int Width) const {
    return segment(Lane, Width) + ((Src % Width) + Width) % Width;
  }
  /// __shfl_up_sync: Delta lanes below, the own value outside the segment.
  int up(int Lane, int Delta, int Width) const {
    return Lane % Width - Delta < 0 ? Lane : Lane - Delta;
  }
  /// __shfl_down_sync: Delta lanes above, the own value outside.
  int down(int Lane, int Delta, int Width) const {
    return Lane % Width + Delta >= Width ? Lane : Lane + Delta;
  }
  /// __shfl_xor_sync: earlier segments can be read, later ones give the own
  /// value.
  int bfly(int Lane, int Mask, int Width) const {
    const int J = Lane ^ Mask;
    return J >= segment(Lane, Width) + Width ? Lane : J;
  }

  /// Lane L's result reads lane Src(L) of \p V.
  template <class T, class SrcFn>
  std::vector<T> shuffle(const std::vector<T> &V, SrcFn Src) const {
    std::vector<T> R;
    for (int L = 0; L < Ws; ++L)
      R.push_back(V[Src(L)]);
    return R;
  }

  /// The mask with a bit for each lane whose \p Pred holds, within \p Mask.
  template <class PredFn>
  unsigned long long ballot(unsigned long long Mask, PredFn Pred) const {
    unsigned long long R = 0;
    for (int L = 0; L < Ws; ++L)
      if (Pred(L))
        R |= 1ull << L;
    return R & Mask;
  }
};

int popcount(unsigned long long M) {
  int N = 0;
  for (; M; M &= M - 1)
    ++N;
  return N;
}
int ffs(unsigned long long M) {
  for (int B = 0; B < 64; ++B)
    if (M >> B & 1)
      return B + 1;
  return 0;
}
int clz(unsigned long long M, int Bits) {
  for (int B = Bits - 1; B >= 0; --B)
    if (M >> B & 1)
      return Bits - 1 - B;
  return Bits;
}

/// Expected[c][k] for every check, one warp at a time.
std::vector<std::vector<unsigned long long>> expected(int N, int Ws) {
  std::vector<std::vector<unsigned long long>> E(
      NumChecks, std::vector<unsigned long long>(N));
  const WarpModel M{Ws};
  const int Bits = int(sizeof(hpp::LaneMask) * 8);
  const unsigned long long Full = Ws == 64 ? ~0ull : 0xffffffffull;
  for (int Base = 0; Base < N; Base += Ws) {
    auto values = [&](auto Val) {
      std::vector<decltype(Val(0))> V;
      for (int L = 0; L < Ws; ++L)
        V.push_back(Val(Base + L));
      return V;
    };
    const auto VInt = values(valInt);
    const auto VFloat = values(valFloat);
    const auto VDouble = values(valDouble);
    const auto VLongLong = values(valLongLong);
    const auto VULongLong = values(valULongLong);
    const auto VShort = values(valShort);
    const auto VRgb = values(valRgb);
    const auto VTagged = values(valTagged);
    auto set = [&](Check C, const auto &R) {
      for (int L = 0; L < Ws; ++L)
        E[C][Base + L] = bits(R[L]);
    };
    auto each = [&](Check C, auto Fn) {
      for (int L = 0; L < Ws; ++L)
        E[C][Base + L] = Fn(L);
    };

    set(IdxInt, M.shuffle(VInt, [&](int L) { return M.idx(L, L * 7 + 3, Ws); }));
    std::vector<unsigned> VUnsigned(VInt.begin(), VInt.end());
    set(IdxUnsignedW8,
        M.shuffle(VUnsigned, [&](int L) { return M.idx(L, L * 5 + 1, 8); }));
    set(IdxFloatW16,
        M.shuffle(VFloat, [&](int L) { return M.idx(L, L * 3 + 2, 16); }));
    set(IdxNegativeW16,
        M.shuffle(VInt, [&](int L) { return M.idx(L, -1 - L, 16); }));
    set(IdxShortBroadcast, M.shuffle(VShort, [&](int L) { return M.idx(L, 0, Ws); }));
    set(IdxRgbReverse,
        M.shuffle(VRgb, [&](int L) { return M.idx(L, Ws - 1 - L, Ws); }));

    set(UpInt, M.shuffle(VInt, [&](int L) { return M.up(L, 3, Ws); }));
    set(UpDoubleW8, M.shuffle(VDouble, [&](int L) { return M.up(L, 2, 8); }));
    set(UpLongLongW16, M.shuffle(VLongLong, [&](int L) { return M.up(L, 5, 16); }));
    set(UpPastSegmentW8, M.shuffle(VInt, [&](int L) { return M.up(L, 9, 8); }));

    set(DownInt, M.shuffle(VInt, [&](int L) { return M.down(L, 4, Ws); }));
    set(DownUnsignedLongLongW8,
        M.shuffle(VULongLong, [&](int L) { return M.down(L, 3, 8); }));
    set(DownFloatW16, M.shuffle(VFloat, [&](int L) { return M.down(L, 7, 16); }));
    set(DownTaggedW16, M.shuffle(VTagged, [&](int L) { return M.down(L, 1, 16); }));
    set(DownDoubleHalfWarp,
        M.shuffle(VDouble, [&](int L) { return M.down(L, Ws / 2, Ws); }));

    set(XorInt, M.shuffle(VInt, [&](int L) { return M.bfly(L, 1, Ws); }));
    set(XorDouble, M.shuffle(VDouble, [&](int L) { return M.bfly(L, 5, Ws); }));
    set(XorIntoLowerSegmentW8,
        M.shuffle(VInt, [&](int L) { return M.bfly(L, 8, 8); }));
    set(XorLongLongW16, M.shuffle(VLongLong, [&](int L) { return M.bfly(L, 6, 16); }));
    set(XorReverseWarp,
        M.shuffle(VULongLong, [&](int L) { return M.bfly(L, Ws - 1, Ws); }));

    const unsigned long long B =
        M.ballot(Full, [&](int L) { return ballotPred(Base + L); });
    each(Ballot, [&](int) { return B; });
    each(BallotPopc, [&](int) { return (unsigned long long)popcount(B); });
    each(BallotFfs, [&](int) { return (unsigned long long)ffs(B); });
    each(BallotClz, [&](int) { return (unsigned long long)clz(B, Bits); });
    each(BallotSegment16, [&](int L) {
      return M.ballot(0xffffull << (L & ~15),
                      [&](int J) { return segmentPred(Base + J); });
    });
    each(AnyFull, [&](int) { return 1ull | (B != 0 ? 4ull : 0ull); });
    each(AllFull, [&](int) { return 1ull | 4ull; });
    each(VotesSegment16, [&](int L) {
      const int Segment = L >> 4;
      return (Segment == 1 ? 1ull : 0ull) | (Segment % 2 == 0 ? 2ull : 0ull);
    });
    each(ActiveFull, [&](int) { return Full; });
    each(ActiveDivergent, [&](int L) { return L < 16 ? 0xffffull : 0ull; });
    each(MaskBits, [&](int L) {
      return (unsigned long long)Ws | (unsigned long long)(L + 1) << 8 |
             (unsigned long long)(Bits - 1 - L) << 16 |
             (unsigned long long)Bits << 24 | 0ull << 32 |
             (unsigned long long)(Bits - Ws) << 40;
    });
    each(WarpSize, [&](int) { return (unsigned long long)Ws; });

    // The loops, step by step as the device runs them.
    auto butterfly = [&](auto V, int Width) {
      for (int O = Width / 2; O > 0; O /= 2) {
        const auto T = M.shuffle(V, [&](int L) { return M.bfly(L, O, Width); });
        for (int L = 0; L < Ws; ++L)
          V[L] += T[L];
      }
      return V;
    };
    auto scan = [&](auto V, int Width) {
      for (int O = 1; O < Width; O *= 2) {
        const auto T = M.shuffle(V, [&](int L) { return M.up(L, O, Width); });
        for (int L = 0; L < Ws; ++L)
          if (L % Width >= O)
            V[L] += T[L];
      }
      return V;
    };
    std::vector<int> Sum = VInt;
    for (int O = Ws / 2; O > 0; O /= 2) {
      const auto T = M.shuffle(Sum, [&](int L) { return M.down(L, O, Ws); });
      for (int L = 0; L < Ws; ++L)
        Sum[L] += T[L];
    }
    set(ReduceDownInt, Sum);
    set(ReduceXorDouble, butterfly(VDouble, Ws));
    set(ReduceXorIntW8, butterfly(VInt, 8));
    set(ReduceXorFloatW16, butterfly(VFloat, 16));
    set(ScanUpIntW16, scan(VInt, 16));
    set(ScanUpLongLongFull, scan(VLongLong, Ws));
  }
  return E;
}

} // namespace

int main() {
  try {
    const int N = 1024, Local = 256;
    const int Ws = hpp::getWarpSize(hpp::getDevice());
    std::printf("warp selftest: warp width %d, %d-bit lane masks, %d work-items "
                "in groups of %d\n",
                Ws, int(sizeof(hpp::LaneMask) * 8), N, Local);
    if (Ws != 32 && Ws != 64) {
      std::printf("FAIL warp width %d is neither 32 nor 64\n", Ws);
      return 1;
    }
    hpp::Pointer<unsigned long long> Out =
        hpp::allocate<unsigned long long>(size_t(NumChecks) * N);
    hpp::launchKernel(hpp_warp_selftest_pfor0,
                      hpp::Range<1, 1>(hpp::Range<1>(N), hpp::Range<1>(Local)),
                      Out, N);
    const auto E = expected(N, Ws);
    int Failed = 0, Skipped = 0;
    for (int C = 0; C < NumChecks; ++C) {
#if defined(HPP_BACKEND_CPU)
      if (C == ActiveDivergent) {
        std::printf("SKIP %s (CPU backend)\n", CheckNames[C]);
        ++Skipped;
        continue;
      }
#endif
      int Bad = -1;
      for (int K = 0; K < N && Bad < 0; ++K)
        if (Out[size_t(C) * N + K] != E[C][K])
          Bad = K;
      if (Bad < 0) {
        std::printf("PASS %s\n", CheckNames[C]);
        continue;
      }
      ++Failed;
      std::printf("FAIL %s: work-item %d (lane %d): 0x%llx, expected 0x%llx\n",
                  CheckNames[C], Bad, Bad % Ws,
                  (unsigned long long)Out[size_t(C) * N + Bad],
                  (unsigned long long)E[C][Bad]);
    }
    hpp::deallocate(Out);
    std::printf("%s: %d passed, %d failed, %d skipped\n",
                Failed ? "SOME FAILED" : "ALL PASSED",
                NumChecks - Failed - Skipped, Failed, Skipped);
    return Failed ? 1 : 0;
  } catch (const hpp::RuntimeError &E) {
    std::printf("FAIL runtime error: %s\n", E.what());
    return 2;
  }
}
