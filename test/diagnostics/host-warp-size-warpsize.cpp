// warpSize in host code is the run-time width as MVECTOR_SIZE is: outside a
// call statement's template arguments, a use that needs a constant, or such
// a use of a `const` variable initialised with the width (a constant only
// while the tool parses), makes its statements run once per width, and is
// an error where they cannot (here: a goto out of them). A call statement
// after a `case` or a label, or as an unbraced `if` body, is dispatched,
// not reported.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

template <int W> struct Tile {
  int data[W];
};
template <int W> int lanes() { return W; }
template <int W> void use(int) {}

int constants(int k) {
lbl:
  k += 1;
  int a = lanes<warpSize>();
  // CHECK-MESSAGES: host-warp-size-warpsize.cpp:[[@LINE-1]]:17: error: the mvector width is a run-time value in host code (HIP has no compile-time wavefront size), so it cannot be a constant here [hpp-host-warp-size]
  // CHECK-MESSAGES: host-warp-size-warpsize.cpp:[[@LINE+10]]:5: note: the statements that need it as a constant (from there to the last that uses what they declare) would run once per width, but they contain a goto out of them
  // CHECK-MESSAGES: note: move the code that needs the constant into a function of its own
  int perLane[warpSize];
  const int half = MVECTOR_SIZE / 2;
  const int quarter = half / 2;
  Tile<quarter> tile;
  use<half>(k);
  // A run-time use of such a variable is fine.
  int sum = half + quarter;
  if (k-- < 0)
    goto lbl;
  return a + perLane[0] + tile.data[0] + sum;
}

// Call statements are dispatched wherever they stand.
void positions(int k) {
  switch (k) {
  case 1:
    use<warpSize>(k);
    break;
  }
  if (k)
    use<warpSize>(k);
lbl:
  use<warpSize / 2>(k);
  if (k < 0)
    goto lbl;
}

// A device lambda that reads such a constant without capturing it (it is
// not odr-used) would get the width the tool parses with; an init-capture
// passes the host's value.
void kernel(Pointer<int> p, int n) {
  const int w = warpSize;
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i.getX()] = w; });
  // CHECK-MESSAGES: host-warp-size-warpsize.cpp:[[@LINE-1]]:74: error: device code reads 'w', which holds the mvector width of the host, without capturing it: the kernel would get the width the tool assumes while it parses (32), not the device's [hpp-host-warp-size]
  // CHECK-MESSAGES: host-warp-size-warpsize.cpp:[[@LINE-3]]:13: note: 'w' is initialised with the width here
  // CHECK-MESSAGES: host-warp-size-warpsize.cpp:[[@LINE-3]]:74: note: capture it with an init-capture (`[=, w = w]`), or write MVECTOR_SIZE in the body (device code reads the executing device's width)
  parallelFor(Range<1>(n), [=, w = w](Index<1> i) __device(hpp) {
    p[i.getX()] = w;
  });
}

// Outside functions there is no statement to dispatch, and a constant would
// not compile on a GPU: every use is an error (device lambdas aside).
constexpr int kLanes = warpSize;
// CHECK-MESSAGES: host-warp-size-warpsize.cpp:[[@LINE-1]]:24: error: the mvector width is a run-time value in host code (HIP has no compile-time wavefront size), so it cannot be used in the declaration of 'kLanes' outside a function [hpp-host-warp-size]
// CHECK-MESSAGES: note: read it in a function (host code there gets the current device's width), pass it as a template argument of a call statement (`f<MVECTOR_SIZE>(args);`), or use MVECTOR_MAX / MVECTOR_MIN for storage bounds
struct PerLane {
  int slots[MVECTOR_SIZE];
  // CHECK-MESSAGES: host-warp-size-warpsize.cpp:[[@LINE-1]]:13: error: the mvector width is a run-time value in host code (HIP has no compile-time wavefront size), so it cannot be used in the declaration of 'slots' outside a function
  int width = warpSize;
  // CHECK-MESSAGES: host-warp-size-warpsize.cpp:[[@LINE-1]]:15: error: {{.*}} 'width' outside a function
};
static int launched = [] {
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    int w = warpSize;
    (void)w;
  });
  return 0;
}();
// CHECK-MESSAGES-NOT: host-warp-size-warpsize.cpp:{{[0-9]+}}:{{[0-9]+}}: error:
// CHECK-MESSAGES: 5 errors generated.
// CHECK-MESSAGES: hpp-rewrite: error: rewriting failed; no output written
