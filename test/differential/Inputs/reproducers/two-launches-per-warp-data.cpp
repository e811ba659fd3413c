// Reproducer (scripts/difftest.py, class wrong-64-unwarned): two launches
// share per-warp data (examples/warp_scan.cpp's shape) and hpp-rewrite picks
// the width per kernel: the first kernel has 32-lane assumptions (`& 31`,
// `lane == 31`), keeps 32-lane warps and stores totals[g / warpSize] with
// warpSize = 32; the second, written with warpSize only, runs on the
// wavefront and reads totals[g / 64]. Wrong at 64 as written and rewritten;
// only a remark ([hpp-warp-size]) about the first kernel.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
int main() {
  const int n = 256;
  Pointer<int> in = allocate<int>(n), out = allocate<int>(n), totals = allocate<int>(n / 32);
  for (int k = 0; k < n; ++k) in[k] = k % 5;
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
    int g = int(i.getX()), lane = g & 31, v = in[g];
    for (int d = 1; d < 32; d *= 2) {
      int t = __shfl_up_sync(0xffffffff, v, d);
      if (lane >= d) v += t;
    }
    out[g] = v;
    if (lane == 31) totals[g / warpSize] = v;
  });
  for (int w = 0, run = 0; w < n / 32; ++w) { int t = totals[w]; totals[w] = run; run += t; }
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
    int g = int(i.getX());
    out[g] += totals[g / warpSize];
  });
  int bad = 0;
  for (int k = 0, run = 0; k < n; ++k) { run += in[k]; bad += out[k] != run; }
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad;
}
