// In device code that runs on whole wavefronts the warp width is a
// run-time value (hpp::getWarpSize(); HIP has no constant wavefront size):
// a use that needs a constant is an error at the use. A kernel that keeps
// 32-lane warps (a 32-lane fact, docs/width-model.md, anywhere in the file)
// has a constant width, hpp::warp32::size: no error there
// (test/rewrite/device-width-constant.cpp). So this file has no 32-lane
// fact.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

template <int W> struct Tile {
  int data[W];
};
template <int W> __device(hpp) int lanes() { return W; }

void native(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int buf[MVECTOR_SIZE];
    // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-1]]:13: error: the warp width is not a compile-time constant in a kernel that runs on whole wavefronts (HIP has no constant wavefront size), so it cannot be a constant here [hpp-warp-size]
    // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-2]]:13: note: use MVECTOR_MAX (64) for storage bounds (MVECTOR_MIN, 32, for the smallest width); a test of the width can be an ordinary `if`
    enum { Lanes = warpSize };
    // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-1]]:20: error: the warp width is not a compile-time constant
    constexpr int half = warpSize / 2;
    // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-1]]:26: error: the warp width is not a compile-time constant
    static_assert(warpSize % 2 == 0, "");
    // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-1]]:19: error: the warp width is not a compile-time constant
    Tile<warpSize> tile;
    // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-1]]:10: error: the warp width is not a compile-time constant
    int l = lanes<MVECTOR_SIZE>();
    // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-1]]:19: error: the warp width is not a compile-time constant
    if constexpr (warpSize == 64)
      // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-1]]:19: error: the warp width is not a compile-time constant
      l += 1;
    switch (l) {
    case warpSize:
      // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-1]]:10: error: the warp width is not a compile-time constant
      break;
    }
    const int w = warpSize;
    int perLane[w];
    // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-1]]:17: error: 'w' holds the warp width, which is not a compile-time constant in a kernel that runs on whole wavefronts (HIP has no constant wavefront size), so it cannot be a constant here [hpp-warp-size]
    // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-3]]:15: note: 'w' is initialised with the width here
    // Run-time uses are fine, so are the bounds.
    int bound[MVECTOR_MAX];
    bound[0] = w;
    if (warpSize == 64)
      l += bound[0];
    buf[0] = Lanes + tile.data[0] + half + l + perLane[0];
    p[i.getX()] = buf[0];
  });
}

// A __device(hpp) function is checked the same way.
__device(hpp) int helper(int x) {
  int slots[warpSize];
  // CHECK-MESSAGES: device-width-constant.cpp:[[@LINE-1]]:13: error: the warp width is not a compile-time constant
  slots[0] = x;
  return slots[0];
}

// CHECK-MESSAGES-NOT: device-width-constant.cpp:{{[0-9]+}}:{{[0-9]+}}: error:
// CHECK-MESSAGES: 10 errors generated.
// CHECK-MESSAGES: hpp-rewrite: error: rewriting failed; no output written
