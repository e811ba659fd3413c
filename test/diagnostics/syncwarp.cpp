// hpp-syncwarp: __syncwarp(mask) becomes a sync of the whole 32-lane tile,
// so a mask that is not a full-mask literal is reported (on AMD the whole
// wavefront synchronizes, not the lanes of the mask). __syncwarp() and a
// full mask (0xffffffff, ~0u, -1) say nothing; the file is still rewritten,
// the masks dropped.
// RUN: %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="[hpp-syncwarp]"
// RUN: %strip %t.out | FileCheck %s --check-prefix=OUT

#include <hpp/hpp.h>
using namespace hpp;

__device(hpp) void halves(Pointer<int> p, int k) {
  unsigned low = 0x0000ffffu;
  p[k] = 1;
  __syncwarp(low);
  // CHECK-MESSAGES: syncwarp.cpp:[[@LINE-1]]:14: warning: __syncwarp with a mask that is not the full warp: it becomes a sync of the whole 32-lane tile, and on AMD the whole wavefront synchronizes, not only the lanes of the mask [hpp-syncwarp]
  __syncwarp(0xffff0000);
  // CHECK-MESSAGES: syncwarp.cpp:[[@LINE-1]]:14: warning: __syncwarp with a mask that is not the full warp{{.*}}[hpp-syncwarp]
  __syncwarp(__ballot_sync(0xffffffff, k & 1));
  // CHECK-MESSAGES: syncwarp.cpp:[[@LINE-1]]:14: warning: __syncwarp with a mask that is not the full warp{{.*}}[hpp-syncwarp]
}
// OUT: p[k] = 1;
// OUT-NEXT: cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block()).sync();
// OUT-NEXT: cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block()).sync();
// OUT-NEXT: cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block()).sync();

void full(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    __syncwarp();
    __syncwarp(0xffffffff);
    __syncwarp(~0u);
    __syncwarp(-1);
    halves(p, int(i.getX()));
  });
}
