// The CUDA warp intrinsics in device code call the runtime's warp
// operations. This kernel uses 32-bit masks and 32-lane widths (the 16 and
// 8 of its shuffles): it keeps 32-lane warps (docs/width-model.md), so
// __shfl_sync -> hpp::warp32::shflSync, __shfl_up_sync ->
// hpp::warp32::shflUpSync, __shfl_down_sync -> hpp::warp32::shflDownSync,
// __shfl_xor_sync -> hpp::warp32::shflXorSync, __ballot_sync ->
// hpp::warp32::ballotSync, __any_sync -> hpp::warp32::anySync, __all_sync
// -> hpp::warp32::allSync, __activemask -> hpp::warp32::activeMask. Only
// the callee changes (mask and width stay); in parallelFor bodies,
// __device(hpp) functions, a template (unresolved calls) and a lambda
// nested in device code. warpMax's warpSize stands for the 32-lane warp
// (a remark says so). A host function that happens to be called
// __shfl_sync in a namespace is not an intrinsic. The program checks every
// operation against plain C++ per 32-lane warp, on the reference and on
// the rewritten program, at widths 32 and 64 (hpp::shflSync & co., the
// whole-wavefront forms, are rewrite/lane-mask.cpp's).
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref
// RUN: env HPP_CPU_MVECTOR=64 %t.ref
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe
// RUN: env HPP_CPU_MVECTOR=64 %t.exe
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>

using namespace hpp;

namespace user {
/// Not a warp intrinsic: a function of the user's namespace.
inline int __shfl_sync(int a, int b) { return a + b; }
} // namespace user

/// The largest \p x of the mvector (butterfly over the whole width).
template <class T> __device(hpp) T warpMax(T x) {
  for (int o = warpSize / 2; o > 0; o /= 2) {
    T y = __shfl_xor_sync(0xffffffff, x, o);
    x = x > y ? x : y;
  }
  return x;
}
// REMARK: warp-intrinsics.cpp:[[@LINE-6]]:16: remark: this kernel keeps 32-lane warps on every target (two per 64-lane wavefront): 'warpSize' stands for the 32-lane warp here, as on NVIDIA [hpp-warp-size]
// REMARK: note: the kernel assumes 32-lane warps here: a shuffle width that is not the warp's
// Functions that run collectives are device-only.
// CHECK: template <class T> __device__ T warpMax(T x) {
// CHECK-NEXT: for (int o = hpp::warp32::size / 2; o > 0; o /= 2) {
// CHECK-NEXT: T y = hpp::warp32::shflXorSync(0xffffffff, x, o);

/// Whether every lane of the mvector is active.
__device(hpp) int allActive() {
  return __all_sync(0xffffffff, __activemask() == __ballot_sync(0xffffffff, 1));
}
// CHECK: {{^}}__device__ int allActive() {
// CHECK-NEXT: return hpp::warp32::allSync(0xffffffff, hpp::warp32::activeMask() == hpp::warp32::ballotSync(0xffffffff, 1));

void warpOps(Pointer<int> in, Pointer<int> out, int n) {
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)),
              [=](Index<1, 1> i) __device(hpp) {
                int k = int(i.getX());
                int v = in[k];
                int *o = &out[8 * k];
                o[0] = __shfl_sync(0xffffffff, v, 0);
                o[1] = __shfl_sync(0xffffffff, v, 3, 16);
                o[2] = __shfl_up_sync(0xffffffff, v, 1);
                o[3] = __shfl_down_sync(0xffffffff, v, 2, 8);
                o[4] = __shfl_xor_sync(0xffffffff, v, 1);
                o[5] = __any_sync(0xffffffff, v == 7) + 2 * allActive();
                o[6] = int(warpMax(float(v)));
                auto fromLane1 = [=](int x) { return __shfl_sync(0xffffffff, x, 1); };
                o[7] = fromLane1(v) + user::__shfl_sync(0, 0);
              });
}
// CHECK:      o[0] = hpp::warp32::shflSync(0xffffffff, v, 0);
// CHECK-NEXT: o[1] = hpp::warp32::shflSync(0xffffffff, v, 3, 16);
// CHECK-NEXT: o[2] = hpp::warp32::shflUpSync(0xffffffff, v, 1);
// CHECK-NEXT: o[3] = hpp::warp32::shflDownSync(0xffffffff, v, 2, 8);
// CHECK-NEXT: o[4] = hpp::warp32::shflXorSync(0xffffffff, v, 1);
// CHECK-NEXT: o[5] = hpp::warp32::anySync(0xffffffff, v == 7) + 2 * allActive();
// CHECK-NEXT: o[6] = int(warpMax(float(v)));
// CHECK-NEXT: auto fromLane1 = [=](int x) { return hpp::warp32::shflSync(0xffffffff, x, 1); };
// CHECK-NEXT: o[7] = fromLane1(v) + user::__shfl_sync(0, 0);
// CHECK-NOT: {{[^:]}}__{{shfl|ballot|any|all|activemask}}

int main() {
  const int W = 32; // 32-bit masks: 32-lane warps at either width
  const int n = 512;
  Pointer<int> in = allocate<int>(n), out = allocate<int>(8 * n);
  for (int k = 0; k < n; ++k)
    in[k] = (k * k + 3 * k) % 101;
  try {
    warpOps(in, out, n);
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
  // The same in plain C++: lane l of the warp that starts at item b.
  int Wrong = 0;
  for (int k = 0; k < n; ++k) {
    int b = k / W * W, l = k % W, Any = 0, Max = 0;
    for (int j = b; j < b + W; ++j) {
      Any |= in[j] == 7;
      Max = in[j] > Max ? in[j] : Max;
    }
    int Down = (l % 8) + 2 < 8 ? in[k + 2] : in[k];
    int Expected[8] = {in[b],          in[b + (l & ~15) + 3],
                       l ? in[k - 1] : in[k], Down,
                       in[b + (l ^ 1)], Any + 2,
                       Max,            in[b + 1]};
    for (int e = 0; e < 8; ++e)
      if (out[8 * k + e] != Expected[e] && Wrong++ < 5)
        std::printf("item %d op %d: %d, expected %d\n", k, e, out[8 * k + e],
                    Expected[e]);
  }
  if (Wrong)
    std::printf("wrong result at width %d: %d values\n", W, Wrong);
  return Wrong != 0;
}
