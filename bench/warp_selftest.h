//===- bench/warp_selftest.h - The warp self-test's checks and model -----===//
//
// Part of hpp-rewrite. Benchmark / self-test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The checks of bench/warp_selftest.cpp (ids and names, one X-macro row
/// each), the values the work-items shuffle, and the host model: CUDA's
/// semantics for one warp of Ws lanes, the expected result of every check
/// for every work-item. Include after <hpp/runtime.h>.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_BENCH_WARP_SELFTEST_H
#define HPP_BENCH_WARP_SELFTEST_H

#include <cstring>
#include <vector>

namespace selftest {

/// The checks, in the order of the output tables: Id and name. Both tables
/// have those up to NumWideChecks; the rest are hpp::warp32's only.
#define SELFTEST_CHECKS(X)                                                     \
  X(IdxInt, "shfl idx int")                                                    \
  X(IdxUnsignedW8, "shfl idx unsigned width 8")                                \
  X(IdxFloatW16, "shfl idx float width 16")                                    \
  X(IdxNegativeW16, "shfl idx negative lane width 16")                         \
  X(IdxShortBroadcast, "shfl idx short broadcast")                             \
  X(IdxRgbReverse, "shfl idx 3-byte struct reversed")                          \
  X(UpInt, "shfl up int")                                                      \
  X(UpDoubleW8, "shfl up double width 8")                                      \
  X(UpLongLongW16, "shfl up long long width 16")                               \
  X(UpPastSegmentW8, "shfl up delta 9 width 8 (own value)")                    \
  X(DownInt, "shfl down int")                                                  \
  X(DownUnsignedLongLongW8, "shfl down unsigned long long width 8")            \
  X(DownFloatW16, "shfl down float width 16")                                  \
  X(DownTaggedW16, "shfl down 8-byte struct width 16")                         \
  X(DownDoubleHalfWarp, "shfl down double by half the warp")                   \
  X(XorInt, "shfl xor int")                                                    \
  X(XorDouble, "shfl xor double")                                              \
  X(XorIntoLowerSegmentW8, "shfl xor 8 width 8 (lower segment / own value)")   \
  X(XorLongLongW16, "shfl xor long long width 16")                             \
  X(XorReverseWarp, "shfl xor warp-1 (reverse)")                               \
  X(Ballot, "ballot full mask")                                                \
  X(BallotPopc, "popc of ballot")                                              \
  X(BallotFfs, "ffs of ballot")                                                \
  X(BallotClz, "clz of ballot")                                                \
  X(BallotSegment16, "ballot per 16-lane mask")                                \
  X(AnyFull, "any full mask")                                                  \
  X(AllFull, "all full mask")                                                  \
  X(VotesSegment16, "any/all per 16-lane mask")                                \
  X(ActiveFull, "activeMask full warp")                                        \
  X(ActiveDivergent, "activeMask in divergent branch")                         \
  X(MaskBits, "popc/ffs/clz of lane masks")                                    \
  X(WarpSize, "device warp size")                                              \
  X(ReduceDownInt, "reduction shfl down (getWarpSize()/2 ... 1)")              \
  X(ReduceXorDouble, "reduction shfl xor double")                              \
  X(ReduceXorIntW8, "reduction shfl xor int width 8")                          \
  X(ReduceXorFloatW16, "reduction shfl xor float width 16")                    \
  X(ScanUpIntW16, "inclusive scan shfl up int width 16")                       \
  X(ScanUpLongLongFull, "inclusive scan shfl up long long full warp")          \
  X(NumWideChecks, "")                                                         \
  X(IdxPast32, "shfl idx lane + 35 (mod 32)")                                  \
  X(IdxShortPast32W8, "shfl idx short lane 37 width 8")                        \
  X(UpDelta32, "shfl up double delta 32 (= 0: own value)")                     \
  X(UpDelta16W16, "shfl up long long delta 16 width 16 (own value)")           \
  X(UpDelta40W16, "shfl up int delta 40 (= 8) width 16")                       \
  X(DownDelta33, "shfl down float delta 33 (= 1)")                             \
  X(DownDelta20W16, "shfl down 8-byte struct delta 20 width 16 (own value)")   \
  X(Xor16W16, "shfl xor 16 width 16 (lower segment / own value)")              \
  X(Xor32, "shfl xor unsigned long long 32 (= 0: own value)")                  \
  X(Xor48W16, "shfl xor 48 (= 16) width 16 (lower segment / own value)")       \
  X(VotesOneHalf, "ballot/any/all true in one half only")                      \
  X(ScanUpTo32, "inclusive scan shfl up int, k <= 32")                         \
  X(ReduceDownW16, "reduction shfl down int width 16")                         \
  X(LowerHalfOnly, "reduction and ballot in the lower half only")

enum Check {
#define SELFTEST_ID(Id, Name) Id,
  SELFTEST_CHECKS(SELFTEST_ID)
#undef SELFTEST_ID
      NumChecks
};

const char *const CheckNames[NumChecks] = {
#define SELFTEST_NAME(Id, Name) Name,
    SELFTEST_CHECKS(SELFTEST_NAME)
#undef SELFTEST_NAME
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
__host__ __device__ inline float valFloat(int K) {
  return float(K) * 0.5f + 0.25f;
}
__host__ __device__ inline double valDouble(int K) {
  return double(K) * 1e10 + 0.5;
}
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
__host__ __device__ inline int segmentPred(int K) {
  return (valInt(K) & 4) != 0;
}
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

/// The host model: CUDA's semantics (PTX shfl.sync) for one warp of Ws
/// lanes. The offsets count modulo Ws, as the hardware reads them.
struct WarpModel {
  int Ws;

  int segment(int Lane, int Width) const { return Lane / Width * Width; }
  /// __shfl_sync: lane srcLane % Width of the own segment.
  int idx(int Lane, int Src, int Width) const {
    return segment(Lane, Width) + ((Src % Width) + Width) % Width;
  }
  /// __shfl_up_sync: Delta lanes below, the own value outside the segment.
  int up(int Lane, int Delta, int Width) const {
    Delta %= Ws;
    return Lane % Width - Delta < 0 ? Lane : Lane - Delta;
  }
  /// __shfl_down_sync: Delta lanes above, the own value outside.
  int down(int Lane, int Delta, int Width) const {
    Delta %= Ws;
    return Lane % Width + Delta >= Width ? Lane : Lane + Delta;
  }
  /// __shfl_xor_sync: earlier segments can be read, later ones give the own
  /// value.
  int bfly(int Lane, int Mask, int Width) const {
    const int J = Lane ^ (Mask % Ws);
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

inline int popcount(unsigned long long M) {
  int N = 0;
  for (; M; M &= M - 1)
    ++N;
  return N;
}
inline int ffs(unsigned long long M) {
  for (int B = 0; B < 64; ++B)
    if (M >> B & 1)
      return B + 1;
  return 0;
}
inline int clz(unsigned long long M, int Bits) {
  for (int B = Bits - 1; B >= 0; --B)
    if (M >> B & 1)
      return Bits - 1 - B;
  return Bits;
}

/// Expected[c][k] for every check, one warp of \p Ws lanes at a time, with
/// \p Bits-bit masks; \p Warp32: also hpp::warp32's own checks.
inline std::vector<std::vector<unsigned long long>>
expected(int N, int Ws, int Bits, bool Warp32) {
  std::vector<std::vector<unsigned long long>> E(
      NumChecks, std::vector<unsigned long long>(N));
  const WarpModel M{Ws};
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

    set(IdxInt,
        M.shuffle(VInt, [&](int L) { return M.idx(L, L * 7 + 3, Ws); }));
    std::vector<unsigned> VUnsigned(VInt.begin(), VInt.end());
    set(IdxUnsignedW8,
        M.shuffle(VUnsigned, [&](int L) { return M.idx(L, L * 5 + 1, 8); }));
    set(IdxFloatW16,
        M.shuffle(VFloat, [&](int L) { return M.idx(L, L * 3 + 2, 16); }));
    set(IdxNegativeW16,
        M.shuffle(VInt, [&](int L) { return M.idx(L, -1 - L, 16); }));
    set(IdxShortBroadcast,
        M.shuffle(VShort, [&](int L) { return M.idx(L, 0, Ws); }));
    set(IdxRgbReverse,
        M.shuffle(VRgb, [&](int L) { return M.idx(L, Ws - 1 - L, Ws); }));

    set(UpInt, M.shuffle(VInt, [&](int L) { return M.up(L, 3, Ws); }));
    set(UpDoubleW8, M.shuffle(VDouble, [&](int L) { return M.up(L, 2, 8); }));
    set(UpLongLongW16,
        M.shuffle(VLongLong, [&](int L) { return M.up(L, 5, 16); }));
    set(UpPastSegmentW8, M.shuffle(VInt, [&](int L) { return M.up(L, 9, 8); }));

    set(DownInt, M.shuffle(VInt, [&](int L) { return M.down(L, 4, Ws); }));
    set(DownUnsignedLongLongW8,
        M.shuffle(VULongLong, [&](int L) { return M.down(L, 3, 8); }));
    set(DownFloatW16,
        M.shuffle(VFloat, [&](int L) { return M.down(L, 7, 16); }));
    set(DownTaggedW16,
        M.shuffle(VTagged, [&](int L) { return M.down(L, 1, 16); }));
    set(DownDoubleHalfWarp,
        M.shuffle(VDouble, [&](int L) { return M.down(L, Ws / 2, Ws); }));

    set(XorInt, M.shuffle(VInt, [&](int L) { return M.bfly(L, 1, Ws); }));
    set(XorDouble, M.shuffle(VDouble, [&](int L) { return M.bfly(L, 5, Ws); }));
    set(XorIntoLowerSegmentW8,
        M.shuffle(VInt, [&](int L) { return M.bfly(L, 8, 8); }));
    set(XorLongLongW16,
        M.shuffle(VLongLong, [&](int L) { return M.bfly(L, 6, 16); }));
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
    if (!Warp32)
      continue;

    set(IdxPast32,
        M.shuffle(VInt, [&](int L) { return M.idx(L, L + 35, 32); }));
    set(IdxShortPast32W8,
        M.shuffle(VShort, [&](int L) { return M.idx(L, 37, 8); }));
    set(UpDelta32, M.shuffle(VDouble, [&](int L) { return M.up(L, 32, 32); }));
    set(UpDelta16W16,
        M.shuffle(VLongLong, [&](int L) { return M.up(L, 16, 16); }));
    set(UpDelta40W16, M.shuffle(VInt, [&](int L) { return M.up(L, 40, 16); }));
    set(DownDelta33,
        M.shuffle(VFloat, [&](int L) { return M.down(L, 33, 32); }));
    set(DownDelta20W16,
        M.shuffle(VTagged, [&](int L) { return M.down(L, 20, 16); }));
    set(Xor16W16, M.shuffle(VInt, [&](int L) { return M.bfly(L, 16, 16); }));
    set(Xor32, M.shuffle(VULongLong, [&](int L) { return M.bfly(L, 32, 32); }));
    set(Xor48W16, M.shuffle(VInt, [&](int L) { return M.bfly(L, 48, 16); }));
    const unsigned long long Upper =
        M.ballot(Full, [&](int L) { return ((Base + L) & 63) >= 48; });
    const bool Any40 = (Base & 63) == 32, All32 = (Base & 63) == 0;
    each(VotesOneHalf, [&](int) {
      return Upper | (Any40 ? 1ull << 32 : 0ull) | (All32 ? 1ull << 33 : 0ull);
    });
    std::vector<int> ScanK = VInt;
    for (int O = 1; O <= 32; O *= 2) {
      const auto T = M.shuffle(ScanK, [&](int L) { return M.up(L, O, 32); });
      for (int L = 0; L < Ws; ++L)
        if (L >= O)
          ScanK[L] += T[L];
    }
    set(ScanUpTo32, ScanK);
    std::vector<int> Sum16 = VInt;
    for (int O = 8; O > 0; O /= 2) {
      const auto T = M.shuffle(Sum16, [&](int L) { return M.down(L, O, 16); });
      for (int L = 0; L < Ws; ++L)
        Sum16[L] += T[L];
    }
    set(ReduceDownW16, Sum16);
    const auto SumAll = butterfly(VInt, 32);
    each(LowerHalfOnly, [&](int L) {
      return (Base & 32) ? 0ull
                         : (unsigned long long)(unsigned)SumAll[L] | B << 32;
    });
  }
  return E;
}

} // namespace selftest

#endif // HPP_BENCH_WARP_SELFTEST_H
