// Direct and mutual recursion in device code are errors.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

__device(hpp) int fact(int k) { return k <= 1 ? 1 : k * fact(k - 1); }
// CHECK-MESSAGES: recursive-device-function.cpp:[[@LINE-1]]:57: error: recursive call to 'fact' in device code; device functions must not recurse [hpp-recursive-device-function]

__device(hpp) int odd(int k);
__device(hpp) int even(int k) { return k == 0 ? 1 : odd(k - 1); }
__device(hpp) int odd(int k) { return k == 0 ? 0 : even(k - 1); }
// CHECK-MESSAGES: recursive-device-function.cpp:[[@LINE-1]]:52: error: recursive call to 'even'{{.*}}[hpp-recursive-device-function]

__device(hpp) int plain(int k) { return k + 1; }

void h(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = fact(3) + even(4) + plain(1);
  });
}
// CHECK-MESSAGES-NOT: 'plain'
