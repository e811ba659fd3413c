// Reproducer (scripts/difftest.py, class wrong-64-unwarned; long run, seed
// 1032 kernel 79): two launches share per-warp data, but this time the
// first kernel is written with warpSize only (a scan `d < warpSize` under
// a 32-bit mask, `lane == warpSize - 1` storing totals[g / warpSize]) and
// the 32-lane fact is in the second (`totals[g >> 5]`). hpp-rewrite made
// the first kernel Native (the wavefront at 64) and the second Logical32,
// so at 64 the second read slots by 32 that the first wrote by 64; no
// diagnostic. A 32-lane fact in any kernel now keeps every real-width
// kernel of the file on 32-lane warps.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
#define FULL_MASK 0xffffffff
int main() {
  const int n = 256;
  Pointer<int> in = allocate<int>(n), out = allocate<int>(n),
               totals = allocate<int>(n / MVECTOR_MIN);
  for (int k = 0; k < n; ++k) in[k] = k % 7 - 3;
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(128)), [=](Index<1, 1> i) __device(hpp) {
    int g = int(i.getX()), lane = g % warpSize, v = in[g];
    for (int d = 1; d < warpSize; d <<= 1) {
      int up = __shfl_up_sync(FULL_MASK, v, d);
      if (lane >= d) v += up;
    }
    out[g] = v;
    if (lane == warpSize - 1) totals[g / warpSize] = v;
  });
  for (int w = 0, run = 0; w < n / MVECTOR_MIN; ++w) { int t = totals[w]; totals[w] = run; run += t; }
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(128)), [=](Index<1, 1> i) __device(hpp) {
    int g = int(i.getX());
    out[g] += totals[g >> 5];
  });
  int bad = 0;
  for (int k = 0, run = 0; k < n; ++k) { run += in[k]; bad += out[k] != run; }
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad;
}
