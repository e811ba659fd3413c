// Kernels that share device helpers (lib/Analysis/WidthModel.h): a helper
// with nothing of the width in it (no warp operation, width, mask or
// 32-lane fact, in it or in what it calls; a plain function, a template, a
// call spelled through a macro) is rewritten the same for any caller, so
// the kernels that share it decide apart. A helper with warp code joins
// its callers: when one of them mixes 64-bit masks with 32-lane warps (it
// runs as written, with a warning), every other kernel that reaches a use
// of the real width through the shared code is warned at its own line; one
// that reaches none runs on 32-lane warps either way and is not.
// (test/differential/shared-helper-join.test runs such programs.)
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="{{remark|warning|error}}:"
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx_runtime -fsyntax-only %t.cpp
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

inline int loadOr(Pointer<int> p, int g, int n) { return g < n ? p[g] : 0; }
template <typename T> T scaled(T v, T k) { return v * k + loadOr(Pointer<int>(), 0, 0); }
#define LOAD(p, g, n) loadOr(p, g, n)
// CHECK: {{^}}__host__ __device__ inline int loadOr(Pointer<int> p, int g, int n) { return g < n ? p[g] : 0; }

inline int xorLane(int v, int o) { return __shfl_xor_sync(0xffffffffu, v, o); }
// CHECK: {{^}}__device__ inline int xorLane(int v, int o) { return hpp::warp32::shflXorSync(0xffffffffu, v, o); }

// Mixes a 64-bit mask with `& 31`: as written, with the warning.
void mixed(Pointer<int> in, Pointer<int> out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int g = int(i.getX());
    unsigned long long b = __ballot_sync(~0ull, LOAD(in, g, n) != 0);
    if ((g & 31) == 0)
      out[g] = int(__popcll(b)) + xorLane(g, 1) + scaled(g, 2);
  });
}
// CHECK-MESSAGES: width-model-shared-helper.cpp:[[@LINE-4]]:14: warning: this kernel mixes 64-bit lane masks, which name the whole 64-lane wavefront, with 32-lane warps: it runs as written, and on a 64-lane wavefront it computes what the two widths give together, not what it computes on NVIDIA [hpp-warp-size]
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: the literal '31'
// CHECK-MESSAGES: :[[@LINE-7]]:42: note: and uses the whole wavefront here: a 64-bit lane mask
// CHECK-MESSAGES: note: use 32-bit masks (0xffffffff) for 32-lane warps
// The kernel that shares xorLane and uses warpSize: warned at its line.
// CHECK-MESSAGES: :[[@LINE+19]]:28: warning: this kernel runs as written, each warp operation on the lanes its mask names: it shares warp code with a kernel that mixes 64-bit lane masks with 32-lane warps, and on a 64-lane wavefront it may not compute what it computes on NVIDIA [hpp-warp-size]
// CHECK-MESSAGES: :[[@LINE-10]]:14: note: the kernel it shares code with assumes 32-lane warps here: the literal '31'
// CHECK-MESSAGES: :[[@LINE+20]]:18: note: and this kernel uses the whole wavefront here: 'warpSize'

// Shares only the width-free helpers (through the macro and the template):
// on whole wavefronts, its mask widened, no diagnostic.
void wide(Pointer<int> in, Pointer<int> out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int g = int(i.getX());
    int v = LOAD(in, g, n) + scaled(1, 2);
    for (int o = warpSize / 2; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffff, v, o);
    out[g] = v;
  });
}
// CHECK: for (int o = hpp::getWarpSize() / 2; o > 0; o /= 2)
// CHECK-NEXT: v += hpp::shflDownSync(hpp::getWarpFullMask(), v, o);

void sharesWarpCode(Pointer<int> in, Pointer<int> out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int g = int(i.getX());
    int v = loadOr(in, g, n);
    for (int o = warpSize / 2; o > 0; o /= 2)
      v += xorLane(v, o);
    out[g] = v;
  });
}
// CHECK: for (int o = hpp::getWarpSize() / 2; o > 0; o /= 2)
// CHECK-NEXT: v += xorLane(v, o);

// Shares xorLane but uses no real width: on 32-lane warps either way.
void narrowOnly(Pointer<int> in, Pointer<int> out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int g = int(i.getX());
    out[g] = xorLane(loadOr(in, g, n), 1);
  });
}
