// A kernel that keeps 32-lane warps (its `& 31` is a 32-lane fact:
// docs/width-model.md) and calls the dialect's warp collectives: they are
// uses of the mvector width, which in such a kernel stands for the
// 32-lane warp, as warpSize does: hpp-warp-intrinsic renames them to the
// runtime's hpp::warp32:: forms (resolved calls, a qualified call with
// template arguments, a call in a template), so the rewritten program
// computes at every width what the reference computes at width 32. The
// group collectives do not depend on the width and stay. The program
// checks itself against plain C++ at 32 lanes.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.out32
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.out32
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | diff %t.out32 -
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | diff %t.out32 -
// RUN: %gpu_check %t.cpp
//
// REMARK: collectives-warp32.cpp:[[@LINE+13]]:10: remark: this kernel keeps 32-lane warps on every target (two per 64-lane wavefront): 'warpReduce' stands for the 32-lane warp here, as on NVIDIA [hpp-warp-size]
// REMARK: note: the kernel assumes 32-lane warps here: the literal '31'
// OUT: warp32 ok
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

/// The maximum of \p x over the warp.
template <class T> __device(hpp) T warpMax(T x) {
  return warpReduce(x, Maximum<T>());
}
// CHECK: template <class T> __host__ __device__ T warpMax(T x) {
// CHECK-NEXT: return hpp::warp32::warpReduce(x, Maximum<T>());

int main() {
  const int n = 256;
  Pointer<int> out = allocate<int>(5 * n);
  parallelFor(Range<1, 1>(n, 128), [=](Index<1, 1> i) __device(hpp) {
    size_t g = i.getX();
    int v = int(g * 7 % 13);
    out[5 * g] = warpReduce(v, Plus<int>());
    out[5 * g + 1] = hpp::warpExclusiveScan<int>(v, 1, Plus<int>());
    out[5 * g + 2] = warpMax(v) + warpBroadcast(v, int(i.getLocalX() & 31) / 2);
    out[5 * g + 3] = warpBallotRank(v > 6) * 100 + warpBallotCount(v > 6);
    out[5 * g + 4] = groupReduce(v, Plus<int>());
  });
  // CHECK: out[5 * g] = hpp::warp32::warpReduce(v, Plus<int>());
  // CHECK-NEXT: out[5 * g + 1] = hpp::warp32::warpExclusiveScan<int>(v, 1, Plus<int>());
  // CHECK-NEXT: out[5 * g + 2] = warpMax(v) + hpp::warp32::warpBroadcast(v, int(i.getLocalX() & 31) / 2);
  // CHECK-NEXT: out[5 * g + 3] = hpp::warp32::warpBallotRank(v > 6) * 100 + hpp::warp32::warpBallotCount(v > 6);
  // CHECK-NEXT: out[5 * g + 4] = groupReduce(v, Plus<int>());
  int Bad = 0;
  for (int g = 0; g < n; ++g) {
    int Base = g / 32 * 32, l = g % 32, Sum = 0, Before = 1, Max = 0;
    int Rank = 0, Count = 0, Group = 0;
    for (int k = 0; k < 32; ++k) {
      int v = (Base + k) * 7 % 13;
      Sum += v;
      Before += k < l ? v : 0;
      Max = v > Max ? v : Max;
      Rank += k < l && v > 6;
      Count += v > 6;
    }
    for (int k = g / 128 * 128; k < g / 128 * 128 + 128; ++k)
      Group += k * 7 % 13;
    int Want[5] = {Sum, Before, Max + (Base + l / 2) * 7 % 13,
                   Rank * 100 + Count, Group};
    for (int c = 0; c < 5; ++c)
      if (out[5 * g + c] != Want[c] && Bad++ < 10)
        std::printf("mismatch %d at %d: %d, not %d\n", c, g, out[5 * g + c],
                    Want[c]);
  }
  std::printf("warp32 %s\n", Bad ? "FAILED" : "ok");
}
