// The 32-lane facts of the width model (lib/Analysis/WidthModel.h,
// docs/width-model.md), one device function each: every function uses
// warpSize and one fact, so it keeps 32-lane warps, its warpSize stands
// for the 32-lane warp (hpp::warp32::size), and a remark names the fact.
// Masks the tool could not widen (a field, an array element, a parameter it
// does not change, a return type, a constant, a declaration shared with a
// non-mask, a global) are facts too: they are right on 32-lane warps, so
// nothing is reported as lost. (Code without facts, which runs on whole
// wavefronts: rewrite/width-model-native.cpp; once one kernel of a file keeps
// 32-lane warps, every kernel of it that uses warpSize does. The last
// function mixes 64-bit masks with a fact: it runs as written, with a
// warning.)
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="{{remark|warning|error}}:"
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx_runtime -fsyntax-only %t.cpp
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;


__device(hpp) int lane31(int id) { int w = warpSize; return (id & 31) + w; }
// CHECK-MESSAGES: width-model-facts.cpp:[[@LINE-1]]:44: remark: this kernel keeps 32-lane warps on every target (two per 64-lane wavefront): 'warpSize' stands for the 32-lane warp here, as on NVIDIA [hpp-warp-size]
// CHECK-MESSAGES: :[[@LINE-2]]:67: note: the kernel assumes 32-lane warps here: the literal '31'
// CHECK-MESSAGES: note: to run on whole 64-lane wavefronts
// CHECK: {{^}}__host__ __device__ int lane31(int id) { int w = hpp::warp32::size; return (id & 31) + w; }

__device(hpp) int warp32(int id) { int w = warpSize; return id / 32 + w; }
// CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: the literal '32'
// CHECK-MESSAGES: note: to run on whole

__device(hpp) int mask0x1f(int id) { int w = warpSize; return (id & 0x1f) + w; }
// CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: the literal '0x1f'
// CHECK-MESSAGES: note: to run on whole

__device(hpp) int shift5(int id) { int w = warpSize; return (id >> 5) + w; }
// CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: a shift by 5 (a 32-lane warp index)
// CHECK-MESSAGES: note: to run on whole

__device(hpp) float tree16(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v * warpSize;
}
// CHECK-MESSAGES: :[[@LINE-2]]:14: remark:
// CHECK-MESSAGES: :[[@LINE-5]]:16: note: the kernel assumes 32-lane warps here: the literal '16'
// CHECK-MESSAGES: note: to run on whole
// CHECK: v += hpp::warp32::shflXorSync(0xffffffff, v, o);
// CHECK-NEXT: return v * hpp::warp32::size;

__device(hpp) bool warps(int id, int n) { return id < n / 32.f + warpSize; }
// CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: the literal '32.f'
// CHECK-MESSAGES: note: to run on whole

__device(hpp) int highest(int p) {
  return __clz(__ballot_sync(0xffffffff, p)) + warpSize;
}
// CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: '__clz', whose count depends on the mask's width
// CHECK-MESSAGES: note: to run on whole

__device(hpp) int partial(int v) {
  return __shfl_sync(0x0000ffff, v, 0) + warpSize;
}
// CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: a lane mask naming part of a 32-lane warp
// CHECK-MESSAGES: note: to run on whole

struct Votes {
  unsigned bits;
};
__device(hpp) int field(int p) {
  Votes v;
  v.bits = __ballot_sync(0xffffffff, p);
  return int(v.bits) + warpSize;
}
// CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: :[[@LINE-4]]:3: note: the kernel assumes 32-lane warps here: a lane mask stored where its type cannot be widened
// CHECK-MESSAGES: note: to run on whole

__device(hpp) void element(unsigned *out, int p) {
  out[0] = __ballot_sync(0xffffffff, p) + warpSize;
}
// CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: a lane mask stored where its type cannot be widened
// CHECK-MESSAGES: note: to run on whole

inline int lowLanes(unsigned m) { return int(m & 0xffu); }
__device(hpp) int parameter(int p) {
  return lowLanes(__ballot_sync(0xffffffff, p)) + warpSize;
}
// CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: a lane mask stored where its type cannot be widened
// CHECK-MESSAGES: note: to run on whole

__device(hpp) unsigned votesOf(int p) {
  return __ballot_sync(0xffffffff, p) + 0 * warpSize;
}
// CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: a lane mask stored where its type cannot be widened
// CHECK-MESSAGES: note: to run on whole

__device(hpp) int constant(int v) {
  constexpr unsigned kFull = 0xffffffffu;
  return __shfl_sync(kFull, v, 0) + warpSize;
}
// CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: :[[@LINE-4]]:22: note: the kernel assumes 32-lane warps here: the constant lane mask 'kFull'
// CHECK-MESSAGES: note: to run on whole
// CHECK: constexpr unsigned kFull = 0xffffffffu;

__device(hpp) int shared(int p) {
  unsigned even = __ballot_sync(0xffffffff, p), seen = 0;
  return int(even + seen) + warpSize;
}
// CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: {{a lane mask stored where its type cannot be widened|the lane mask 'even', declared together with 'seen'}}
// CHECK-MESSAGES: note: to run on whole

const unsigned kFullMask = 0xffffffff;
__device(hpp) int global(int v) { return __shfl_sync(kFullMask, v, 0) + warpSize; }
// CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: a lane mask stored where its type cannot be widened
// CHECK-MESSAGES: note: to run on whole

__device(hpp) int segments(int v, int width) {
  return __shfl_xor_sync(0xffffffff, v, 1, width) + warpSize;
}
// CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: remark:
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: a shuffle width that is not the warp's
// CHECK-MESSAGES: note: to run on whole

// 64-bit masks (the whole wavefront) with a 32-lane fact: the function runs
// as written, each operation on the lanes its mask names (as the reference
// runtime runs it), and a warning says it may differ from NVIDIA at 64.
__device(hpp) int asWritten(int v, int id) {
  return __shfl_sync(~0ull, v, 0) + (id & 31);
}
// CHECK-MESSAGES: :[[@LINE-2]]:43: warning: this kernel mixes 64-bit lane masks, which name the whole 64-lane wavefront, with 32-lane warps: it runs as written, and on a 64-lane wavefront it computes what the two widths give together, not what it computes on NVIDIA [hpp-warp-size]
// CHECK-MESSAGES: note: the kernel assumes 32-lane warps here: the literal '31'
// CHECK-MESSAGES: :[[@LINE-4]]:22: note: and uses the whole wavefront here: a 64-bit lane mask
// CHECK-MESSAGES: note: use 32-bit masks (0xffffffff) for 32-lane warps
// CHECK: return hpp::shflSync(~0ull, v, 0) + (id & 31);
