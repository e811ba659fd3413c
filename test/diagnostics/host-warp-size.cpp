// Host code that needs the mvector width as a constant runs once per width
// (hpp::withWarpSize, test/rewrite/host-width-constant.cpp): the statements
// of its block from the first such use to the last that uses what they
// declare. Statements that cannot run inside a lambda are an error at the
// first use, with a note at what keeps them from it: a jump out of them, a
// case label of an enclosing switch, a static local (one per width), a
// kernel launch (the outliner's), a return from the middle of a function,
// a return type deduced other than as `auto`. The width written inside
// another macro is an error (no edit reaches it). MVECTOR_MAX / MVECTOR_MIN stay constants, and device code may
// use MVECTOR_SIZE anywhere.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

template <int W> struct Tile {
  int data[W];
};

int breaks(int k) {
  for (int i = 0; i < k; ++i) {
    Tile<MVECTOR_SIZE> t;
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:10: error: the mvector width is a run-time value in host code (HIP has no compile-time wavefront size), so it cannot be a constant here [hpp-host-warp-size]
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE+3]]:7: note: the statements that need it as a constant (from there to the last that uses what they declare) would run once per width, but they contain a 'break' out of them
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-3]]:10: note: move the code that needs the constant into a function of its own, called as `f<MVECTOR_SIZE>(args);` (a 32/64 dispatch), or use MVECTOR_MAX / MVECTOR_MIN for storage bounds
    if (i == 3)
      break;
    t.data[0] = i;
  }
  return k;
}

int continues(int k) {
  for (int i = 0; i < k; ++i) {
    int a[MVECTOR_SIZE];
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:11: error: the mvector width is a run-time value
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE+2]]:7: note: {{.*}} but they contain a 'continue' out of them
    if (i == 3)
      continue;
    a[0] = i;
    // A loop of the region's own may break.
    for (int j = 0; j < 4; ++j)
      if (a[0] == j)
        break;
  }
  return k;
}

// (A goto to a label among them is theirs.)
int gotos(int k) {
  const int half = MVECTOR_SIZE / 2;
  Tile<half> t;
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:8: error: the mvector width is a run-time value
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE+6]]:5: note: {{.*}} but they contain a goto out of them
lbl:
  t.data[0] = k;
  if (--k > 0)
    goto lbl;
  if (t.data[0] > 1)
    goto done;
  k = t.data[0];
done:
  return k;
}

// (In the switch's own block, the statements would be the whole switch.)
int cases(int k) {
  switch (k) {
  case 1: {
    int a[MVECTOR_SIZE];
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:11: error: the mvector width is a run-time value
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE+2]]:3: note: {{.*}} but they contain a case label of an enclosing switch
    a[0] = k;
  case 2:
    a[1] = k;
  }
  }
  return 0;
}

int statics() {
  static int cache[MVECTOR_SIZE];
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:20: error: the mvector width is a run-time value
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-2]]:14: note: {{.*}} but they contain a static local variable (there would be one per width)
  return cache[0];
}

void launches(Pointer<int> p, int n) {
  constexpr int w = MVECTOR_SIZE;
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:21: error: the mvector width is a run-time value
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE+1]]:28: note: {{.*}} but they contain a kernel launch (a device lambda)
  parallelFor(Range<1>(n), [=, v = w](Index<1> i) __device(hpp) {
    p[i.getX()] = v;
  });
}

int middle(int k) {
  if (k > 0) {
    int a[MVECTOR_SIZE];
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:11: error: the mvector width is a run-time value
    // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-2]]:5: note: {{.*}} but they contain a 'return' from the middle of the function
    a[0] = k;
    return a[0];
  }
  return 0;
}

decltype(auto) deduced(int k) {
  int a[MVECTOR_SIZE];
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:9: error: the mvector width is a run-time value
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-3]]:16: note: {{.*}} but they contain a 'return' in a function whose return type is deduced other than as plain 'auto'
  a[0] = k;
  return a[0] + 0;
}

#define PER_LANE(name) int name[MVECTOR_SIZE]
#define DECLARE(decl) decl
int macro() {
  PER_LANE(a);
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:3: error: the mvector width is written inside 'PER_LANE' here; in host code it is a run-time value the tool must write, and it does not edit macro expansions [hpp-host-warp-size]
  // CHECK-MESSAGES: note: write MVECTOR_SIZE outside the macro
  DECLARE(int b = MVECTOR_SIZE);
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:3: error: the mvector width is written inside 'DECLARE' here
  DECLARE(int c[MVECTOR_SIZE]);
  // CHECK-MESSAGES: host-warp-size.cpp:[[@LINE-1]]:3: error: the mvector width is written inside 'DECLARE' here
  a[0] = b + c[0];
  return a[0];
}

// Bounds are constants everywhere.
int bounds() {
  int bound[MVECTOR_MAX + MVECTOR_MIN];
  bound[0] = 1;
  return bound[0];
}
// The device function below draws no diagnostic.
// CHECK-MESSAGES-NOT: host-warp-size.cpp:{{[0-9]+}}:{{[0-9]+}}: error:
// CHECK-MESSAGES: 11 errors generated.
// CHECK-MESSAGES: hpp-rewrite: error: rewriting failed; no output written

void device(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int local[MVECTOR_MAX];
    local[0] = MVECTOR_SIZE;
    p[i.getX()] = local[0];
  });
}
