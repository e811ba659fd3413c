// hpp-lane-mask warnings: a partial mask literal names lanes of a 32-lane
// warp; a mask kept where the tool cannot widen it (a field, an array
// element, a parameter of a function it does not change, a variable
// declared outside device code, a 32-bit return type, a declaration shared
// with a non-mask) loses lanes 32-63, with a note (and a fix-it where the
// declaration is the main file's); `31 - __clz(mask)` counts bits of a
// 32-bit mask (fix-it: count from hpp::getMaxWarpSize()). Warnings only:
// the file is still rewritten. A full mask, a 64-bit mask and a __popc of a
// non-mask say nothing.
// RUN: %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="[hpp-lane-mask]"
// RUN: test -e %t.out
// RUN: %hpp_rewrite %s -- -fdiagnostics-parseable-fixits 2>&1 >/dev/null | FileCheck %s --check-prefix=FIXIT

#include <hpp/hpp.h>
using namespace hpp;

const unsigned kFullMask = 0xffffffff;
// FIXIT-DAG: fix-it:"{{.*}}lane-mask.cpp":{[[@LINE-1]]:7-[[@LINE-1]]:15}:"hpp::LaneMask"

struct Votes {
  unsigned bits;
  // FIXIT-DAG: fix-it:"{{.*}}lane-mask.cpp":{[[@LINE-1]]:3-[[@LINE-1]]:11}:"hpp::LaneMask"
};

inline int lowLanes(unsigned m) { return int(m & 0xffffu); }
// FIXIT-DAG: fix-it:"{{.*}}lane-mask.cpp":{[[@LINE-1]]:21-[[@LINE-1]]:29}:"hpp::LaneMask"

__device(hpp) unsigned votesOf(int p) {
  // FIXIT-DAG: fix-it:"{{.*}}lane-mask.cpp":{[[@LINE-1]]:15-[[@LINE-1]]:23}:"hpp::LaneMask"
  return __ballot_sync(0xffffffff, p);
  // CHECK-MESSAGES: lane-mask.cpp:[[@LINE-1]]:10: warning: lane mask returned as 32-bit 'unsigned int' from 'votesOf': on a 64-lane wavefront lanes 32-63 are lost [hpp-lane-mask]
  // CHECK-MESSAGES: lane-mask.cpp:{{[0-9]+}}:24: note: declare the return type of 'votesOf' as hpp::LaneMask
}

__device(hpp) int highestVote(int p) {
  unsigned m = __ballot_sync(0xffffffff, p);
  return 31 - __clz(m);
  // CHECK-MESSAGES: lane-mask.cpp:[[@LINE-1]]:13: warning: '31 - __clz(mask)' counts bits of a 32-bit mask, but hpp::clzMask counts over the whole hpp::LaneMask (64 bits on HIP and the CPU backend); count from hpp::getMaxWarpSize(), its width [hpp-lane-mask]
  // FIXIT-DAG: fix-it:"{{.*}}lane-mask.cpp":{[[@LINE-2]]:10-[[@LINE-2]]:12}:"hpp::getMaxWarpSize() - 1"
}

void masks(Pointer<int> in, Pointer<unsigned> out, Pointer<int> counts,
           int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int v = in[i.getX()];
    int low = __shfl_sync(0x0000ffff, v, 0);
    // CHECK-MESSAGES: lane-mask.cpp:[[@LINE-1]]:27: warning: lane mask 0x0000ffff names lanes of a 32-lane warp: on a 64-lane wavefront lanes 32-63 are not in it [hpp-lane-mask]
    unsigned half = 0xffff0000u;
    // CHECK-MESSAGES: lane-mask.cpp:[[@LINE-1]]:21: warning: lane mask 0xffff0000u names lanes of a 32-lane warp{{.*}}[hpp-lane-mask]
    low += __shfl_sync(half, v, 16);
    int all = __shfl_sync(kFullMask, v, 0);
    // CHECK-MESSAGES: lane-mask.cpp:[[@LINE-1]]:27: warning: lane mask in the 32-bit variable 'kFullMask', declared outside device code: on a 64-lane wavefront lanes 32-63 are lost [hpp-lane-mask]
    // CHECK-MESSAGES: lane-mask.cpp:{{[0-9]+}}:16: note: declare 'kFullMask' as hpp::LaneMask

    Votes votes;
    votes.bits = __ballot_sync(0xffffffff, v > 3);
    // CHECK-MESSAGES: lane-mask.cpp:[[@LINE-1]]:5: warning: lane mask in the 32-bit field 'bits': on a 64-lane wavefront lanes 32-63 are lost [hpp-lane-mask]
    // CHECK-MESSAGES: lane-mask.cpp:{{[0-9]+}}:12: note: declare 'bits' as hpp::LaneMask
    out[i.getX()] = __activemask();
    // CHECK-MESSAGES: lane-mask.cpp:[[@LINE-1]]:5: warning: lane mask in a 32-bit array element: on a 64-lane wavefront lanes 32-63 are lost [hpp-lane-mask]
    // CHECK-MESSAGES: lane-mask.cpp:{{[0-9]+}}:47: note: declare the elements of 'out' as hpp::LaneMask
    unsigned odd = __ballot_sync(0xffffffff, v & 1);
    counts[i.getX()] = lowLanes(odd);
    // CHECK-MESSAGES: lane-mask.cpp:[[@LINE-1]]:33: warning: lane mask passed as the 32-bit parameter 'm' of 'lowLanes', which hpp-rewrite does not change: on a 64-lane wavefront lanes 32-63 are lost [hpp-lane-mask]
    // CHECK-MESSAGES: lane-mask.cpp:{{[0-9]+}}:30: note: declare 'm' as hpp::LaneMask
    unsigned even = __ballot_sync(0xffffffff, !(v & 1)), seen = 0;
    // CHECK-MESSAGES: lane-mask.cpp:[[@LINE-1]]:14: warning: lane mask 'even' shares its declaration with 'seen', which is not a mask; declare it on its own as hpp::LaneMask [hpp-lane-mask]

    unsigned long long wide = __ballot_sync(~0ull, v > 1);
    counts[i.getX()] += low + all + __popc(unsigned(v)) + int(wide) +
                        int(even) + int(seen) + votesOf(v) + highestVote(v);
  });
}
