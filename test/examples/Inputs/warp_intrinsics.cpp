//===- test/examples/Inputs/warp_intrinsics.cpp - Warp intrinsics ---------===//
//
// Part of hpp-rewrite. Input of warp-intrinsics.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA-spelled warp intrinsics on the CPU runtime's simulated mvector,
/// in work-groups of 128 and 256. Every result is checked against plain C++
/// computed per mvector (of width warpSize) and printed width-independently
/// where possible:
///   warp_intrinsics            all intrinsics, prints "verified" lines
///   warp_intrinsics width      prints the width-dependent values
///   warp_intrinsics diverge-exit | diverge-line | diverge-kind | mask32 |
///                   mixed      launches that must throw hpp::RuntimeError
///                              (mask32 and mixed must not)
///                              (warp-intrinsics.test checks their line
///                              numbers: keep diverge() where it is)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstring>
#include <vector>

using namespace hpp;

static int Failures = 0;

static void expect(bool Ok, const char *What, std::size_t I) {
  if (!Ok && Failures++ < 10)
    std::printf("MISMATCH %s at %zu\n", What, I);
}

static void run(std::size_t N, std::size_t G) {
  const int W = MVECTOR_SIZE;
  Pointer<int> In = allocate<int>(N);
  for (std::size_t I = 0; I != N; ++I)
    In[I] = static_cast<int>((I * 7919u) % 1000u) - 300;
  Pointer<long long> Sum = allocate<long long>(N);
  Pointer<double> DSum = allocate<double>(N);
  Pointer<int> Bcast = allocate<int>(N), Up = allocate<int>(N),
               Down = allocate<int>(N), Xor = allocate<int>(N),
               Sub = allocate<int>(N);
  Pointer<unsigned long long> Ballot = allocate<unsigned long long>(N),
                              Active = allocate<unsigned long long>(N);
  Pointer<int> Any = allocate<int>(N), All = allocate<int>(N),
               AllPos = allocate<int>(N), Popc = allocate<int>(N),
               Ws = allocate<int>(N), Prefix = allocate<int>(N);
  Pointer<float> FBcast = allocate<float>(N);
  // CUDA-way code: 32-bit masks, a loop from 16, lane ids & 31.
  Pointer<int> Sum32 = allocate<int>(N), Lead32 = allocate<int>(N);
  Pointer<unsigned> Ballot32 = allocate<unsigned>(N);

  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=](Index<1, 1> i) __device(hpp) {
                std::size_t g = i.getX();
                int lane = static_cast<int>(i.getLocalX()) % warpSize;
                int v = In[g];
                // Warp reduction, width-independent.
                long long s = v;
                double d = v * 0.5;
                for (int o = warpSize / 2; o > 0; o /= 2) {
                  s += __shfl_xor_sync(~0ull, s, o);
                  d += __shfl_xor_sync(~0ull, d, o);
                }
                Sum[g] = s;
                DSum[g] = d;
                Bcast[g] = __shfl_sync(~0ull, v, 3);
                FBcast[g] = __shfl_sync(~0ull, v * 0.25f, warpSize - 1);
                Up[g] = __shfl_up_sync(~0ull, v, 1);
                Down[g] = __shfl_down_sync(~0ull, v, 2);
                Xor[g] = __shfl_xor_sync(~0ull, v, 5);
                Sub[g] = __shfl_sync(~0ull, v, 0, 8); // 8-lane segments
                // Inclusive prefix sum with __shfl_up_sync.
                int p = v;
                for (int o = 1; o < warpSize; o *= 2) {
                  int t = __shfl_up_sync(~0ull, p, o);
                  if (lane >= o)
                    p += t;
                }
                Prefix[g] = p;
                unsigned long long b = __ballot_sync(~0ull, v > 0);
                Ballot[g] = b;
                Popc[g] = __popcll(b);
                Any[g] = __any_sync(~0ull, v == In[g - lane]);
                All[g] = __all_sync(~0ull, v > -1000);
                AllPos[g] = __all_sync(~0ull, v > 0);
                __syncwarp();
                Active[g] = __activemask();
                Ws[g] = warpSize;
                // A 32-bit mask names the caller's 32-lane warp, at both
                // widths.
                int s32 = v;
                for (int o = 16; o > 0; o >>= 1)
                  s32 += __shfl_down_sync(0xffffffff, s32, o);
                Sum32[g] = s32;
                Lead32[g] = __shfl_sync(0xffffffffu, v, 33); // lane 1
                unsigned b32 = __ballot_sync(0xffffffff, v > 0);
                Ballot32[g] = b32 | (__any_sync(0xffffffffu, v > 400) << 31);
              });

  std::size_t Mv = 0;
  long long Total = 0;
  for (std::size_t I = 0; I != N; ++I) {
    std::size_t Base = I - I % W;
    std::size_t Lane = I % W;
    long long S = 0;
    double D = 0;
    unsigned long long B = 0;
    bool AllP = true;
    for (int L = 0; L < W; ++L) {
      S += In[Base + L];
      D += In[Base + L] * 0.5;
      if (In[Base + L] > 0)
        B |= 1ull << L;
      else
        AllP = false;
    }
    int P = 0;
    for (std::size_t L = 0; L <= Lane; ++L)
      P += In[Base + L];
    expect(Sum[I] == S, "xor-reduce", I);
    expect(DSum[I] == D, "xor-reduce-double", I);
    expect(Bcast[I] == In[Base + 3], "shfl", I);
    expect(FBcast[I] == In[Base + W - 1] * 0.25f, "shfl-float", I);
    expect(Up[I] == (Lane >= 1 ? In[I - 1] : In[I]), "shfl_up", I);
    expect(Down[I] == (Lane + 2 < std::size_t(W) ? In[I + 2] : In[I]),
           "shfl_down", I);
    expect(Xor[I] == In[Base + (Lane ^ 5)], "shfl_xor", I);
    expect(Sub[I] == In[I - I % 8], "shfl-width8", I);
    expect(Prefix[I] == P, "prefix", I);
    expect(Ballot[I] == B, "ballot", I);
    expect(Popc[I] == __popcll(B), "popcll", I);
    expect(Any[I] == 1, "any", I);
    expect(All[I] == 1, "all", I);
    expect(AllPos[I] == (AllP ? 1 : 0), "all-pos", I);
    expect(Active[I] == 0xffffffffull, "activemask", I); // CUDA's 32 lanes
    expect(Ws[I] == W, "warpSize", I);
    // Per 32-lane warp.
    std::size_t Base32 = I - I % 32, Lane32 = I % 32;
    unsigned B32 = 0;
    bool Any400 = false;
    for (std::size_t L = 0; L < 32; ++L) {
      if (In[Base32 + L] > 0)
        B32 |= 1u << L;
      Any400 |= In[Base32 + L] > 400;
    }
    if (Lane32 == 0) {
      int T = 0;
      for (std::size_t L = 0; L < 32; ++L)
        T += In[Base32 + L];
      expect(Sum32[I] == T, "shfl_down-mask32", I);
    }
    expect(Lead32[I] == In[Base32 + 1], "shfl-mask32", I);
    expect(Ballot32[I] == ((B32 & 0x7fffffffu) | (unsigned(Any400) << 31)),
           "ballot-mask32", I);
    if (Lane == 0) {
      ++Mv;
      Total += S;
    }
  }
  std::printf("warp group=%zu n=%zu total=%lld %s\n", G, N, Total,
              Failures ? "FAILED" : "verified");
  std::printf("warp-width group=%zu mvectors=%zu\n", G, Mv);
}

static void bits() {
  std::printf("bits popc=%d,%d popcll=%d ffs=%d,%d ffsll=%d,%d clz=%d,%d,%d "
              "clzll=%d,%d\n",
              __popc(0xf0f0u), __popc(0u), __popcll(~0ull), __ffs(0),
              __ffs(0x50), __ffsll(0), __ffsll(1ll << 40), __clz(0), __clz(1),
              __clz(-1), __clzll(0), __clzll(1ll << 40));
}

static int diverge(const char *Mode) {
  try {
    parallelFor(Range<1, 1>(Range<1>(256), Range<1>(128)),
                [=](Index<1, 1> i) __device(hpp) {
                  int lane = static_cast<int>(i.getLocalX()) % warpSize;
                  int v = lane;
                  if (!std::strcmp(Mode, "diverge-exit")) {
                    if (lane >= 16)
                      return;
                    v = __shfl_xor_sync(~0ull, v, 1); // DIVERGE-EXIT-LINE
                  } else if (!std::strcmp(Mode, "diverge-line")) {
                    if (lane & 1)
                      v = __shfl_down_sync(~0ull, v, 1); // DIVERGE-ODD-LINE
                    else
                      v = __shfl_down_sync(~0ull, v, 1); // DIVERGE-EVEN-LINE
                  } else if (!std::strcmp(Mode, "diverge-kind")) {
                    if (lane < 8)
                      __syncwarp();
                    else
                      v = __ballot_sync(~0ull, v > 3) != 0;
                  } else if (!std::strcmp(Mode, "mask32")) {
                    v = __shfl_sync(0xffffffff, v, 0);
                  } else if (!std::strcmp(Mode, "mixed")) {
                    for (int o = warpSize / 2; o > 0; o /= 2)
                      v += __shfl_down_sync(0xffffffff, v, o);
                  }
                  (void)v;
                });
    std::printf("%s: no error\n", Mode);
    return 0;
  } catch (const RuntimeError &E) {
    std::printf("%s: error: %s\n", Mode, E.what());
    return 1;
  }
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "all";
  if (!std::strcmp(Mode, "all")) {
    run(1024, 128);
    run(1024, 256);
    run(768, 128);
    bits();
    return Failures ? 1 : 0;
  }
  if (!std::strcmp(Mode, "width")) {
    run(256, 128);
    std::printf("width=%d\n", warpSize);
    return Failures ? 1 : 0;
  }
  return diverge(Mode);
}
