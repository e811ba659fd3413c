// Reproducer (scripts/difftest.py, class mismatch-64): as hidden-32-macro.cpp,
// with the 32 spelled through a constexpr constant.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
constexpr int kWarp = 32;
int main() {
  const int n = 256;
  Pointer<int> in = allocate<int>(n), count = allocate<int>(1);
  for (int k = 0; k < n; ++k) in[k] = k % 3 == 0;
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
    int lane = int(i.getLocalX()) & (kWarp - 1);
    unsigned b = __ballot_sync(0xffffffff, in[i.getX()]);
    int c = __popc(b);
    if (lane == 0)
      atomicAdd(count, c == warpSize ? warpSize : c);
  });
  std::printf("count %d (expected %d)\n", count[0], (n + 2) / 3);
  return count[0] != (n + 2) / 3;
}
