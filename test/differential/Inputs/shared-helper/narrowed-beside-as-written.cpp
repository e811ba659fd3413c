// Reproducer (scripts/difftest.py, class mismatch-64), found by the
// multi-file long run (seed 1031, program 45, kernel 4500), reduced to one
// file: test/differential/narrowed-beside-as-written.test. Kernel 1's two
// launches share per-warp totals. The first calls laneId (warp code: the
// real width), which kernel 2 calls too, with a 32-lane fact (`& 31`); with
// the first launch's 64-bit mask the component runs as written, with the
// device's warp width (totals[g / 64] on a 64-lane wavefront). Kernel 3's
// literal 16 keeps the file on 32-lane warps, so the second launch, which
// would run at the device's width, keeps 32-lane warps (totals[g / 32]).
// Right at 64 as written; rewritten, kernel 1 differs at 64. Which kernels
// exchange data the tool cannot see: the second launch is warned.
#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace hpp;

typedef void (*WgKernelFn)();
struct WgKernel {
  int Id;
  WgKernelFn Run;
};
static std::vector<WgKernel> &wgKernels() {
  static std::vector<WgKernel> Kernels;
  return Kernels;
}
static bool wgRegister(int Id, WgKernelFn Run) {
  wgKernels().push_back({Id, Run});
  return true;
}
static void wgCheck(int Id, const std::vector<long long> &Got,
                    const std::vector<long long> &Want) {
  for (std::size_t E = 0; E < Want.size() || E < Got.size(); ++E) {
    long long G = E < Got.size() ? Got[E] : -1, W = E < Want.size() ? Want[E] : -1;
    if (E >= Got.size() || E >= Want.size() || G != W) {
      std::printf("kernel %d: MISMATCH at %zu: got %lld expected %lld\n", Id, E, G, W);
      std::fflush(stdout);
      return;
    }
  }
  std::printf("kernel %d: ok\n", Id);
  std::fflush(stdout);
}
static void wgError(int Id, const char *What) {
  std::string Line(What);
  for (char &C : Line)
    if (C == '\n' || C == '\r')
      C = ' ';
  std::printf("kernel %d: ERROR %s\n", Id, Line.c_str());
  std::fflush(stdout);
}

/// The lane in its warp of work-item `id`: the real width, no fact.
__device(hpp) inline int laneId(int id) { return id % warpSize; }


// warpgen kernel 1: lines 61-111, family launch-scan, style generic, expect64 ok (assumes 64 lanes throughout)
static void runKernel1() {
  const int L = 256, G = 2, Gl = G * L, n = 342;
  Pointer<int> in = allocate<int>(n);
  Pointer<int> out = allocate<int>(n);
  Pointer<int> totals = allocate<int>(Gl / MVECTOR_MIN);
  for (int e = 0; e < n; ++e)
    in[e] = (e * 7919) % 21 - 10;
  try {
    parallelFor(Range<1, 1>(Range<1>(Gl), Range<1>(L)), [=](Index<1, 1> i) __device(hpp) {
      int lane = laneId(int(i.getLocalX()));
      const int g = int(i.getX());
      int v = g < n ? in[g] : 0;
      for (int d = 1; d <= warpSize; d *= 2) {
        int up = __shfl_up_sync(~0ULL, v, d);
        if (lane >= d)
          v += up;
      }
      if (g < n)
        out[g] = v;
      if (lane == warpSize - 1)
        totals[g / warpSize] = v;
    });
    int running = 0;
    for (int w = 0; w < Gl / MVECTOR_MIN; ++w) {
      const int total = totals[w];
      totals[w] = running;
      running += total;
    }
    parallelFor(Range<1, 1>(Range<1>(Gl), Range<1>(L)), [=](Index<1, 1> i) __device(hpp) {
      const int g = int(i.getX());
      if (g < n)
        out[g] += totals[g / warpSize];
    });
    std::vector<long long> got(n), want(n);
    long long run = 0;
    for (int e = 0; e < n; ++e) {
      run += in[e];
      want[e] = run;
      got[e] = out[e];
    }
    wgCheck(1, got, want);
  } catch (const std::exception &E) {
    wgError(1, E.what());
  }
  deallocate(in);
  deallocate(out);
  deallocate(totals);
}
static const bool registered1 = wgRegister(1, &runKernel1);
// warpgen end kernel 1

// warpgen kernel 2: lines 113-134, family lane-id, style mixed, expect64 ok (lanes by 32)
static void runKernel2() {
  const int n = 256;
  Pointer<int> out = allocate<int>(n);
  try {
    parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
      const int g = int(i.getX());
      out[g] = laneId(g) - g % warpSize + (g & 31);
    });
    std::vector<long long> got(n), want(n);
    for (int e = 0; e < n; ++e) {
      want[e] = e & 31;
      got[e] = out[e];
    }
    wgCheck(2, got, want);
  } catch (const std::exception &E) {
    wgError(2, E.what());
  }
  deallocate(out);
}
static const bool registered2 = wgRegister(2, &runKernel2);
// warpgen end kernel 2

// warpgen kernel 3: lines 136-157, family xor-swap, style cuda, expect64 ok (a 32-lane warp's halves)
static void runKernel3() {
  const int n = 256;
  Pointer<int> out = allocate<int>(n);
  try {
    parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
      const int g = int(i.getX());
      out[g] = __shfl_xor_sync(0xffffffffu, g, 16);
    });
    std::vector<long long> got(n), want(n);
    for (int e = 0; e < n; ++e) {
      want[e] = e ^ 16;
      got[e] = out[e];
    }
    wgCheck(3, got, want);
  } catch (const std::exception &E) {
    wgError(3, E.what());
  }
  deallocate(out);
}
static const bool registered3 = wgRegister(3, &runKernel3);
// warpgen end kernel 3


/// Runs every kernel, or those whose ids are the arguments.
int main(int argc, char **argv) {
  for (const WgKernel &K : wgKernels()) {
    bool Run = argc < 2;
    for (int A = 1; A < argc; ++A)
      Run = Run || std::atoi(argv[A]) == K.Id;
    if (Run)
      K.Run();
  }
  return 0;
}
