// A warp intrinsic whose name is spelled inside a macro cannot be renamed
// in place (the code would keep CUDA's intrinsic, which HIP lacks or runs
// on the whole wavefront): an error at the macro's use, nothing written. A
// macro that is a whole mask or width (FULL, WS) is fine.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="{{error|warning}}:"
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

#define FULL 0xffffffff
#define WS warpSize
#define SHFL_XOR(v, o) __shfl_xor_sync(FULL, v, o)

void f(Pointer<float> out) {
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    float v = out[i.getX()];
    for (int o = 16; o > 0; o /= 2)
      v += SHFL_XOR(v, o);
    // CHECK-MESSAGES: warp-intrinsic-macro.cpp:[[@LINE-1]]:12: error: cannot rewrite the warp intrinsic '__shfl_xor_sync': it is spelled inside the macro 'SHFL_XOR'; expand the macro here by hand [hpp-warp-intrinsic]
    // CHECK-MESSAGES: warp-intrinsic-macro.cpp:13:24: note: spelled here
    // CHECK-MESSAGES: hpp-rewrite: error: rewriting failed; no output written
    v += __shfl_down_sync(FULL, v, 1) + WS;
    out[i.getX()] = v;
  });
}
