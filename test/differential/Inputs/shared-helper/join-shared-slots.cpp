// Reproducer (scripts/difftest.py, class mismatch-64), found by the
// multi-file generator's long run (seed 1004, program 16, kernel 1601),
// test/differential/shared-helper-join.test. Kernel 3 is two launches that
// share per-warp totals, both written with warpSize only (a scan under a
// 64-bit mask): right at 32 and 64 as written. Its first launch calls
// loadOr, a helper with nothing of the width in it, which kernel 2 calls
// too; kernel 2 mixes a 64-bit mask with a 32-lane fact, so the component
// of both runs as written: the first launch stores totals[g / 64] on a
// 64-lane wavefront. Kernel 1 keeps 32-lane warps (the literal 16 and 31),
// which narrows every component of the file that runs at the device's
// width: the second launch reads totals[g / 32]. Rewritten, kernel 3 is
// wrong at 64, with no diagnostic.
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

/// Element g of p, or 0 past n: no width in it, called by kernels 2 and 3.
__device(hpp) inline int loadOr(Pointer<int> p, int g, int n) { return g < n ? p[g] : 0; }


// warpgen kernel 1: lines 62-89, family warp-sum, style mixed, expect64 ok (assumes 32 lanes throughout)
static void runKernel1() {
  const int n = 256;
  Pointer<int> in = allocate<int>(n), out = allocate<int>(1);
  for (int e = 0; e < n; ++e)
    in[e] = e % 9 - 4;
  out[0] = 0;
  try {
    parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
      const int g = int(i.getX());
      int v = in[g];
      for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
      if ((int(i.getLocalX()) & 31) == 0)
        atomicAdd(out, v);
    });
    long long want = 0;
    for (int e = 0; e < n; ++e)
      want += in[e];
    wgCheck(1, std::vector<long long>(1, out[0]), std::vector<long long>(1, want));
  } catch (const std::exception &E) {
    wgError(1, E.what());
  }
  deallocate(in);
  deallocate(out);
}
static const bool registered1 = wgRegister(1, &runKernel1);
// warpgen end kernel 1

// warpgen kernel 2: lines 91-116, family ballot-count, style mixed, expect64 wrong (ballot of 64 lanes counted by both 32-lane halves)
static void runKernel2() {
  const int n = 256;
  Pointer<int> in = allocate<int>(n), out = allocate<int>(1);
  for (int e = 0; e < n; ++e)
    in[e] = e % 5 == 1;
  out[0] = 0;
  try {
    parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
      const int g = int(i.getX());
      unsigned long long b = __ballot_sync(~0ull, loadOr(in, g, n) != 0);
      if ((int(i.getLocalX()) & 31) == 0)
        atomicAdd(out, int(__popcll(b)));
    });
    long long want = 0;
    for (int e = 0; e < n; ++e)
      want += in[e];
    wgCheck(2, std::vector<long long>(1, out[0]), std::vector<long long>(1, want));
  } catch (const std::exception &E) {
    wgError(2, E.what());
  }
  deallocate(in);
  deallocate(out);
}
static const bool registered2 = wgRegister(2, &runKernel2);
// warpgen end kernel 2

// warpgen kernel 3: lines 118-166, family launch-scan, style mixed, expect64 ok (assumes 64 lanes throughout)
static void runKernel3() {
  const int n = 256;
  Pointer<int> in = allocate<int>(n), out = allocate<int>(n);
  Pointer<int> totals = allocate<int>(n / MVECTOR_MIN);
  for (int e = 0; e < n; ++e)
    in[e] = e % 7 - 3;
  for (int w = 0; w < n / MVECTOR_MIN; ++w)
    totals[w] = 0;
  try {
    parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
      const int g = int(i.getX());
      const int lane = int(i.getLocalX()) % warpSize;
      int v = loadOr(in, g, n);
      for (int d = 1; d < warpSize; d *= 2) {
        int up = __shfl_up_sync(~0ull, v, d);
        if (lane >= d)
          v += up;
      }
      out[g] = v;
      if (lane == warpSize - 1)
        totals[g / warpSize] = v;
    });
    for (int w = 0, run = 0; w < n / MVECTOR_MIN; ++w) {
      const int t = totals[w];
      totals[w] = run;
      run += t;
    }
    parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
      const int g = int(i.getX());
      out[g] += totals[g / warpSize];
    });
    std::vector<long long> got(n), want(n);
    long long run = 0;
    for (int e = 0; e < n; ++e) {
      run += in[e];
      want[e] = run;
      got[e] = out[e];
    }
    wgCheck(3, got, want);
  } catch (const std::exception &E) {
    wgError(3, E.what());
  }
  deallocate(in);
  deallocate(out);
  deallocate(totals);
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
