// Reproducer (scripts/difftest.py, class mismatch-64; compare
// test/examples/Inputs/warp_intrinsics.cpp): one kernel holds code written for
// the whole mvector (warpSize, a 64-bit mask ~0ull) and a CUDA-style 32-lane
// tree. The reference runs each as written: at 64 lanes warpSize is 64 and
// the ~0ull tree sums 64 lanes. hpp-rewrite keeps the whole kernel on
// 32-lane warps ("'warpSize' stands for the 32-lane warp here", a remark),
// so the width-generic part changes meaning: at 64 lanes the kernel sees
// warpSize 32 and 32-lane sums. The program checks itself against the width
// it runs at (HPP_CPU_MVECTOR), so its output is width-dependent.
// Run: scripts/difftest.py test/differential/Inputs/reproducers/reproducers.json
#include <hpp/hpp.h>
#include <cstdio>
#include <cstdlib>
using namespace hpp;
int main() {
  const char *Env = std::getenv("HPP_CPU_MVECTOR");
  const int W = Env && std::atoi(Env) == 64 ? 64 : 32, n = 128;
  Pointer<int> ws = allocate<int>(n), sum = allocate<int>(n), sum32 = allocate<int>(n);
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)), [=](Index<1, 1> i) __device(hpp) {
    int g = int(i.getX()), s = 1, s32 = 1;
    for (int o = warpSize / 2; o > 0; o /= 2)
      s += __shfl_xor_sync(~0ull, s, o);
    for (int o = 16; o > 0; o /= 2)
      s32 += __shfl_xor_sync(0xffffffff, s32, o);
    ws[g] = warpSize;
    sum[g] = s;
    sum32[g] = s32;
  });
  int bad = 0;
  for (int g = 0; g < n; ++g)
    bad += ws[g] != W || sum[g] != W || sum32[g] != 32;
  std::printf("warpSize %d, mvector sum %d, warp sum %d: %s\n", ws[0], sum[0], sum32[0],
              bad ? "wrong" : "ok");
  return bad != 0;
}
