// A warp collective that only part of a warp may reach is reported: under
// an if / ?: / && / switch / loop whose condition depends on the work-item
// id, or after a return taken under such a condition. It is a warning (the
// source is still rewritten); on AMD every active lane of the wavefront must
// take part. Uniform control flow and bounds checks that leave the
// collective outside are fine.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="{{warning|error}}:"
// RUN: test -s %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

void tail(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int v = 0;
    // The tail mvector: lanes past n skip the shuffle.
    if (i.getX() < n) {
      v = p[i.getX()];
      v += __shfl_down_sync(0xffffffff, v, 1);
      // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:12: warning: warp collective '__shfl_down_sync' in control flow that depends on the work-item id; on AMD every active lane of the wavefront must take part [hpp-divergent-warp-op]
      // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-4]]:9: note: this condition depends on the work-item id
    }
    // Uniform loops are fine, and so is a lane test after the shuffles.
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_xor_sync(0xffffffff, v, o);
    if ((i.getLocalX() & 31) == 0)
      p[i.getX()] = v;
  });
}

void lanes(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int lane = int(i.getLocalX()) % 32;
    int first = lane == 0;
    int v = p[i.getX()];
    // Through a variable, in a ternary and after &&.
    v = first ? __shfl_sync(0xffffffff, v, 0) : v;
    // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:17: warning: warp collective '__shfl_sync'
    // CHECK-MESSAGES: :[[@LINE-2]]:9: note: this condition depends on the work-item id
    bool any = lane > 3 && __any_sync(0xffffffff, v > 0);
    // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:28: warning: warp collective '__any_sync'
    // CHECK-MESSAGES: :[[@LINE-2]]:16: note: this condition depends on the work-item id
    switch (lane / 8) {
    case 0:
      __syncwarp();
      // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:7: warning: warp collective '__syncwarp'
      // CHECK-MESSAGES: :[[@LINE-4]]:13: note: this condition depends on the work-item id
      break;
    default:
      break;
    }
    // A loop whose trip count depends on the id.
    for (int k = lane; k < 32; k += 8)
      v += int(__ballot_sync(0xffffffff, k > 4));
    // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:16: warning: warp collective '__ballot_sync'
    // CHECK-MESSAGES: :[[@LINE-3]]:24: note: this condition depends on the work-item id
    while (v < lane)
      v += __shfl_up_sync(0xffffffff, v, 1);
    // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:12: warning: warp collective '__shfl_up_sync'
    // CHECK-MESSAGES: :[[@LINE-3]]:12: note: this condition depends on the work-item id
    // A nested lambda is device code too.
    auto f = [&](int x) {
      if (lane & 1)
        return __activemask();
      // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:16: warning: warp collective '__activemask'
      // CHECK-MESSAGES: :[[@LINE-3]]:11: note: this condition depends on the work-item id
      return 0u + unsigned(x);
    };
    // Uniform conditions are fine: the launch size, a value from the host.
    if (n > 64)
      v += __shfl_down_sync(0xffffffff, v, 2);
    if (i.getGroupX() == 0)
      v += __all_sync(0xffffffff, v > 0);
    // The warp's index is the same for every lane of the warp (`/ 32` and
    // `>> 5` index a 32-lane warp, as the kernel keeps 32-lane warps).
    if (i.getLocalX() / warpSize == 0)
      v += __shfl_down_sync(0xffffffff, v, 4);
    int warp = int(i.getLocalX()) >> 5;
    if (warp == 1 || i.getLocalX() / 32 == 2)
      v += __shfl_down_sync(0xffffffff, v, 8);
    // But the first 32 work-items are half a 64-wide wavefront.
    if (i.getLocalX() < 32)
      v += __shfl_down_sync(0xffffffff, v, 16);
    // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:12: warning: warp collective '__shfl_down_sync'
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this condition depends on the work-item id
    p[i.getX()] = v + any + int(f(1));
  });
}

// After an early return under an id-dependent condition, in a device
// function: the returned work-items do not take part.
__device(hpp) int reduce(Index<1> i, int v, int n) {
  if (i.getX() >= n)
    return 0;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:10: warning: warp collective '__shfl_down_sync'
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: some work-items return early under this condition, which depends on the work-item id
  return v;
}

// A uniform early return is fine.
__device(hpp) int reduceAll(int v, int n) {
  if (n == 0)
    return 0;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

void callers(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = reduce(i, p[i.getX()], n) + reduceAll(1, n);
  });
}

// A function that device code calls without the mark (inline, a template)
// is device code all the same (lib/Dialect/DeviceRootKinds.def): the same
// check applies to it.
inline int implicitReduce(Index<1> i, int v) {
  if (i.getLocalX() < 16)
    v += __shfl_down_sync(0xffffffffu, v, 1);
  // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:10: warning: warp collective '__shfl_down_sync' in control flow that depends on the work-item id; on AMD every active lane of the wavefront must take part [hpp-divergent-warp-op]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on the work-item id
  return v;
}

template <typename T> T implicitTemplate(Index<1> i, T v) {
  return i.getX() % 2 ? v : __shfl_xor_sync(0xffffffffu, v, 1);
  // CHECK-MESSAGES: divergent-warp-op.cpp:[[@LINE-1]]:29: warning: warp collective '__shfl_xor_sync' in control flow that depends on the work-item id
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: this condition depends on the work-item id
}

// Called from host code only: not device code, not checked.
inline int hostOnly(int lane, int v) {
  if (lane < 16)
    v += __shfl_down_sync(0xffffffffu, v, 1);
  return v;
}

void implicitCallers(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = implicitReduce(i, p[i.getX()]) + implicitTemplate(i, 2);
  });
}
