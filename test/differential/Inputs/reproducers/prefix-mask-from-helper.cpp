// Reproducer (scripts/difftest.py, class wrong-64-unwarned): stream
// compaction written with warpSize whose lanes-below mask `(1u << lane) - 1`
// comes from a helper returning `unsigned`. The ballot is widened, the
// helper's return type is not, and no warning says so (docs/rules.md lists
// a narrow return type among hpp-lane-mask's warnings): ranks of lanes 32-63
// are wrong at 64.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <algorithm>
#include <cstdio>
#include <vector>
using namespace hpp;
__device(hpp) inline unsigned lanesBelow(int lane) { return (1u << lane) - 1; }
int main() {
  const int n = 256;
  Pointer<int> in = allocate<int>(n), out = allocate<int>(n), counter = allocate<int>(1);
  for (int k = 0; k < n; ++k) in[k] = k * 7 % 11;
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
    int lane = int(i.getLocalX()) % warpSize, v = in[i.getX()];
    bool keep = v % 3 == 0;
    unsigned b = __ballot_sync(0xffffffff, keep);
    int rank = __popc(b & lanesBelow(lane)), base = 0;
    if (lane == 0)
      base = atomicAdd(counter, __popc(b));
    base = __shfl_sync(0xffffffff, base, 0);
    if (keep)
      out[base + rank] = v;
  });
  std::vector<int> got(out.get(), out.get() + counter[0]), want;
  for (int k = 0; k < n; ++k)
    if (in[k] % 3 == 0) want.push_back(in[k]);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  std::printf("%s\n", got == want ? "ok" : "wrong");
  return got != want;
}
