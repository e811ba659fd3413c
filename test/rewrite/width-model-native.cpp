// A device function and a kernel with no 32-lane fact run on whole
// wavefronts (docs/width-model.md): an offset `+ 32` (not a width), a
// shuffle width that is warpSize, the dialect's bound MVECTOR_MIN, and a hash
// seed 0xffffffff that is no mask are not facts. No remark; the masks are
// widened. The program checks itself at widths 32 and 64: as written it is
// right on NVIDIA only (at 64 its 32-bit mask meets the width 64 of
// warpSize: the reference refuses it), rewritten it is right at both.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref | FileCheck %s --check-prefix=OUT32
// RUN: env HPP_CPU_MVECTOR=64 not %t.ref | FileCheck %s --check-prefix=REF64
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | FileCheck %s --check-prefix=OUT32
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | FileCheck %s --check-prefix=OUT64
// RUN: %gpu_check %t.cpp
// OUT32: width=32 sum=4096 ok
// OUT64: width=64 sum=4096 ok
// REF64: error: {{.*}}width-model-native.cpp:[[@LINE+13]]: __shfl_xor_sync failed: width 64 is wider than the 32-lane warp its 32-bit mask names

#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;

/// No fact: an offset `+ 32`, a width argument that is warpSize, the
/// dialect's bound MVECTOR_MIN, a hash seed that is no mask.
__device(hpp) int native(int v, int id) {
  int slots[MVECTOR_MIN];
  slots[id % MVECTOR_MIN] = v;
  unsigned h = 0xffffffffu ^ unsigned(v);
  unsigned m = __ballot_sync(0xffffffff, v > 0);
  return __shfl_xor_sync(0xffffffff, v + 32, 1, warpSize) + __popc(m) +
         int(h) + slots[0];
}
// CHECK: hpp::LaneMask m = hpp::ballotSync(hpp::getWarpFullMask(), v > 0);
// CHECK-NEXT: return hpp::shflXorSync(hpp::getWarpFullMask(), v + 32, 1, hpp::getWarpSize()) + hpp::popcMask(m) +

int main() {
  const int n = 4096;
  Pointer<int> out = allocate<int>(n);
  try {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int w = warpSize;
    int v = 1;
    for (int o = w / 2; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffff, v, o);
    int lane = int(i.getX()) % w;
    out[i.getX()] = lane == 0 ? v : 0;
    (void)native(v, int(i.getX()));
  });
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
  int Sum = 0;
  for (int k = 0; k < n; ++k)
    Sum += out[k];
  std::printf("width=%d sum=%d %s\n", MVECTOR_SIZE, Sum, Sum == n ? "ok" : "WRONG");
  deallocate(out);
  return Sum != n;
}
