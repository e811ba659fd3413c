// Reproducer (scripts/difftest.py, class mismatch-64): a width of 32 spelled
// through a macro is invisible to hpp-rewrite's width model. The kernel also
// mentions warpSize, so the rewrite runs it on the whole wavefront (the mask
// widened, warpSize = 64), but its lane id stays `& (WARP - 1)`: at 64 lanes
// two lanes of each wavefront add its whole ballot. Right at 32 and 64 on the
// reference as written; the rewrite is wrong at 64, with no diagnostic.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
#define WARP 32
int main() {
  const int n = 256;
  Pointer<int> in = allocate<int>(n), count = allocate<int>(1);
  for (int k = 0; k < n; ++k) in[k] = k % 3 == 0;
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
    int lane = int(i.getLocalX()) & (WARP - 1);
    unsigned b = __ballot_sync(0xffffffff, in[i.getX()]);
    int c = __popc(b);
    if (lane == 0)
      atomicAdd(count, c == warpSize ? warpSize : c);
  });
  std::printf("count %d (expected %d)\n", count[0], (n + 2) / 3);
  return count[0] != (n + 2) / 3;
}
