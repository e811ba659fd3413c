// The rules written as Transformer rules never edit inside a macro's
// expansion, and never drop an edit without a word: the adapter
// (lib/Framework/TransformerRule.h) refuses a match of device code whose text a
// macro spells, with an error at the macro's use tagged with the rule and
// a note where the macro spells it, and nothing is written. One match per
// rule: hpp-warp-intrinsic, hpp-warp-size (in a body, and in a default
// argument, which was left as written before), hpp-syncwarp,
// hpp-source-position and hpp-device-function (the mark of a lambda in
// device code). A macro that writes the whole rewritten text is rewritten
// at its use (FULL here; test/diagnostics/warp-intrinsic-macro.cpp), and a
// function name that a header's macro spells (assert's) is left as it is.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="{{error|warning}}:"
// RUN: not test -e %t.out
// An edit a rule needs beside the text of its match can fail as well: the
// declaration start of a function whose `__device(hpp)` follows the
// parameters lies inside a macro (before, the mark went and no qualifier
// came, silently). Refused with the reason in a note.
// RUN: not %hpp_rewrite %s -o %t.lost.out -- -DLOST 2>&1 | FileCheck %s --check-prefix=LOST --implicit-check-not="{{error|warning}}:"
// RUN: not test -e %t.lost.out

#include <hpp/hpp.h>
#include <cassert>
using namespace hpp;

#ifndef LOST
#define FULL 0xffffffff
#define REDUCE(v) (v) + __shfl_down_sync(FULL, v, 1)
#define HALF_WARP (warpSize / 2)
#define SYNC_ALL { __syncwarp(); }
#define NAME_AT(s, k) s[k] = __func__[k]
#define IDENTITY [](int x) __device(hpp) { return x; }

__device(hpp) int halfOf(int w = HALF_WARP) { return w / 2; }
// CHECK-MESSAGES: transformer-macro-guard.cpp:[[@LINE-1]]:34: error: cannot rewrite the warp width 'warpSize': it is spelled inside the macro 'HALF_WARP'; expand the macro here by hand [hpp-warp-size]
// CHECK-MESSAGES: transformer-macro-guard.cpp:28:20: note: spelled here

__device(hpp) int twice(int x) {
  auto id = IDENTITY;
  // CHECK-MESSAGES: transformer-macro-guard.cpp:[[@LINE-1]]:13: error: cannot rewrite the device annotation '__device': it is spelled inside the macro 'IDENTITY'; expand the macro here by hand [hpp-device-function]
  // CHECK-MESSAGES: transformer-macro-guard.cpp:31:28: note: spelled here
  return 2 * id(x);
}

void f(Pointer<float> out, Pointer<char> name) {
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    float v = out[i.getX()];
    v = REDUCE(v);
    // CHECK-MESSAGES: transformer-macro-guard.cpp:[[@LINE-1]]:9: error: cannot rewrite the warp intrinsic '__shfl_down_sync': it is spelled inside the macro 'REDUCE'; expand the macro here by hand [hpp-warp-intrinsic]
    // CHECK-MESSAGES: transformer-macro-guard.cpp:27:25: note: spelled here
    SYNC_ALL
    // CHECK-MESSAGES: transformer-macro-guard.cpp:[[@LINE-1]]:5: error: cannot rewrite the warp barrier '__syncwarp': it is spelled inside the macro 'SYNC_ALL'; expand the macro here by hand [hpp-syncwarp]
    // CHECK-MESSAGES: transformer-macro-guard.cpp:29:20: note: spelled here
    out[i.getX()] = v + HALF_WARP + twice(1) + halfOf();
    // CHECK-MESSAGES: transformer-macro-guard.cpp:[[@LINE-1]]:25: error: cannot rewrite the warp width 'warpSize': it is spelled inside the macro 'HALF_WARP'; expand the macro here by hand [hpp-warp-size]
    // CHECK-MESSAGES: transformer-macro-guard.cpp:28:20: note: spelled here
    NAME_AT(name, 0);
    // CHECK-MESSAGES: transformer-macro-guard.cpp:[[@LINE-1]]:5: error: cannot rewrite the function name '__func__': it is spelled inside the macro 'NAME_AT'; expand the macro here by hand [hpp-source-position]
    // CHECK-MESSAGES: transformer-macro-guard.cpp:30:30: note: spelled here
    assert(v == v);
  });
}
// CHECK-MESSAGES: hpp-rewrite: error: rewriting failed; no output written

#else
#define DECLARE_TWO int helper(int); int

DECLARE_TWO twice(int x) __device(hpp) { return 2 * x; }
// LOST: transformer-macro-guard.cpp:[[@LINE-1]]:26: error: cannot rewrite the device annotation: an edit it needs falls where the tool cannot edit, and the code would stay as written [hpp-device-function]
// LOST: transformer-macro-guard.cpp:[[@LINE-2]]:26: note: an edit of the rewrite touches text that a macro's expansion writes (expand the macro here by hand), text of a system header, or more than one file
int helper(int x) { return x; }

void f(Pointer<int> out) {
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    out[i.getX()] = twice(i.getX());
  });
}
// LOST: hpp-rewrite: error: rewriting failed; no output written
#endif
