// Reproducer (scripts/difftest.py, class wrong-64-unwarned): the full mask
// comes from a __device(hpp) helper returning `unsigned`. The kernel is
// written with warpSize, so the rewrite runs it on the wavefront, but the
// helper's mask is neither widened nor reported: at 64 lanes the ballot
// throws "lane 32 is not in its mask 0xffffffff".
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
__device(hpp) inline unsigned fullMask() { return 0xffffffffu; }
int main() {
  const int n = 256;
  Pointer<int> in = allocate<int>(n), count = allocate<int>(1);
  for (int k = 0; k < n; ++k) in[k] = k % 3 == 0;
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
    int lane = int(i.getLocalX()) % warpSize;
    unsigned b = __ballot_sync(fullMask(), in[i.getX()]);
    if (lane == 0)
      atomicAdd(count, __popc(b));
  });
  std::printf("count %d (expected %d)\n", count[0], (n + 2) / 3);
  return count[0] != (n + 2) / 3;
}
