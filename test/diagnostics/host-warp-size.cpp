// Host code that needs the mvector width as a constant outside a call
// statement's template arguments is an error: on a GPU the width is only
// known at run time on the host. MVECTOR_MAX / MVECTOR_MIN stay constants,
// and device code may use MVECTOR_SIZE anywhere.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

template <int W> struct Tile {
  int data[W];
};
template <int W> int lanes() { return W; }

int constants(int k) {
  int perLane[MVECTOR_SIZE];
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:15: error: the mvector width is a run-time value in host code (HIP has no compile-time wavefront size), so it cannot be a constant here [hpp-host-warp-size]
  // CHECK-MESSAGES: note: pass it as an explicit template argument of a call statement
  constexpr int half = MVECTOR_SIZE / 2;
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:24: error: the mvector width is a run-time value
  static_assert(MVECTOR_SIZE >= 32, "");
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:17: error: the mvector width is a run-time value
  Tile<MVECTOR_SIZE> tile;
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:8: error: the mvector width is a run-time value
  if constexpr (MVECTOR_SIZE == 64)
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:17: error: the mvector width is a run-time value
    k += 1;
  // Not a statement of its own: no dispatch.
  int w = lanes<MVECTOR_SIZE>();
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:17: error: the mvector width is a run-time value
  switch (k) {
  case MVECTOR_SIZE:
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:8: error: the mvector width is a run-time value
    break;
  }
  // Bounds are constants everywhere.
  int bound[MVECTOR_MAX + MVECTOR_MIN];
  return perLane[0] + half + tile.data[0] + w + bound[0];
}
// The device function below draws no diagnostic.
// CHECK-MESSAGES-NOT: host-warp-size.cpp:{{[0-9]+}}:{{[0-9]+}}: error:
// CHECK-MESSAGES: 7 errors generated.
// CHECK-MESSAGES: hpp-rewrite: error: rewriting failed; no output written

void device(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int local[MVECTOR_MAX];
    local[0] = MVECTOR_SIZE;
    p[i.getX()] = local[0];
  });
}
