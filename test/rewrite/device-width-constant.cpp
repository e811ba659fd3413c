// In a kernel that keeps 32-lane warps (here: `& 31`, the tree from 16 and
// the 32-bit masks, docs/width-model.md) the warp width is a constant,
// hpp::warp32::size: device code may use it where a constant is needed
// (array bound, template argument, constexpr variable, static_assert,
// if constexpr, case label, a const variable initialised with it). The
// output compiles with nvcc and hipcc (no variable-length arrays) and
// computes at both simulated widths what the reference computes for
// 32-lane warps (-DHPP_CPU_MVECTOR=32: the width is a constant there too).
// In a kernel that runs on whole wavefronts these uses are errors
// (test/diagnostics/device-width-constant.cpp).
// RUN: %hpp_rewrite %s -o %t.cpp 2>%t.err
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include -DHPP_CPU_MVECTOR=32 %s -o %t.ref
// RUN: %t.ref > %t.ref32
// RUN: FileCheck %s --check-prefix=OUT < %t.ref32
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe > %t.gen32
// RUN: env HPP_CPU_MVECTOR=64 %t.exe > %t.gen64
// RUN: diff %t.ref32 %t.gen32
// RUN: diff %t.ref32 %t.gen64
// RUN: %gpu_check %t.cpp
// The checks below name lines of this file: a line added above them
// moves every one.

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

template <int W> struct Slots {
  int v[W];
};

int main() {
  const int n = 128;
  Pointer<int> out = allocate<int>(n);
  parallelFor(Range<1, 1>(n, 64), [=](Index<1, 1> i) __device(hpp) {
    constexpr int W = warpSize;
    static_assert(W % 2 == 0, "an even width");
    const int lanes = MVECTOR_SIZE;
    Slots<warpSize> s;
    int buf[lanes];
    int lane = static_cast<int>(i.getLocalX()) & 31;
    for (int k = 0; k < W; ++k)
      buf[k] = k;
    s.v[lane] = buf[lane];
    int v = s.v[lane];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_xor_sync(0xffffffff, v, o);
    if constexpr (warpSize == 32)
      v += 1000;
    switch (lane) {
    case warpSize - 1:
      v += 1;
      break;
    default:
      break;
    }
    out[i.getX()] = v + W;
  });
  // CHECK:      constexpr int W = hpp::warp32::size;
  // CHECK:      const int lanes = hpp::warp32::size;
  // CHECK-NEXT: Slots<hpp::warp32::size> s;
  // CHECK-NEXT: int buf[lanes];
  // CHECK:      if constexpr (hpp::warp32::size == 32)
  // CHECK:      case hpp::warp32::size - 1:
  for (int k = 0; k < n; k += 31)
    std::printf("%d: %d\n", k, out[k]);
  deallocate(out);
  return 0;
}
// 496 (the sum of lanes 0-31) + 1000 + 32, and 1 more in lane 31.
// OUT: 0: 1528
// OUT: 31: 1529
// OUT: 62: 1528
// OUT: 93: 1528
// OUT: 124: 1528
// REMARK: device-width-constant.cpp:41:23: remark: this kernel keeps 32-lane warps on every target (two per 64-lane wavefront): 'warpSize' stands for the 32-lane warp here, as on NVIDIA [hpp-warp-size]
// REMARK-NOT: error
