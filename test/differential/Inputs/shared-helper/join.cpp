// Reproducer (scripts/difftest.py, class wrong-64-unwarned), found by the
// multi-file generator (scripts/warpgen.py --multi-file --seed 5: programs
// 13 and 21), test/differential/shared-helper-join.test: two kernels that
// call one helper with nothing of the width in it (loadOr) are one
// component of the width model, so they get one decision. Kernel 1 mixes a
// 64-bit mask with a 32-lane fact: as written, with a warning at its line.
// Kernel 2 alone uses only the real width (a shuffle of width warpSize
// under a 32-bit mask: wrong at 64 lanes as written, an error on the
// reference) and would run on whole wavefronts, right at 64; joined to
// kernel 1 it runs as written too, stays wrong at 64, and no diagnostic
// names it.
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

/// Element g of p, or 0 past n: no width in it, called by both kernels.
__device(hpp) inline int loadOr(Pointer<int> p, int g, int n) { return g < n ? p[g] : 0; }


// warpgen kernel 1: lines 61-86, family ballot-count, style mixed, expect64 wrong (ballot of 64 lanes counted by both 32-lane halves)
static void runKernel1() {
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
    wgCheck(1, std::vector<long long>(1, out[0]), std::vector<long long>(1, want));
  } catch (const std::exception &E) {
    wgError(1, E.what());
  }
  deallocate(in);
  deallocate(out);
}
static const bool registered1 = wgRegister(1, &runKernel1);
// warpgen end kernel 1

// warpgen kernel 2: lines 88-115, family warp-sum, style mixed, expect64 wrong (tree (width warpSize > 32 under a 32-bit mask))
static void runKernel2() {
  const int n = 256;
  Pointer<int> in = allocate<int>(n), out = allocate<int>(1);
  for (int e = 0; e < n; ++e)
    in[e] = e % 7 - 3;
  out[0] = 0;
  try {
    parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
      const int g = int(i.getX());
      int v = loadOr(in, g, n);
      for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o, warpSize);
      if (int(i.getLocalX()) % warpSize == 0)
        atomicAdd(out, v);
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
