// Recursion through function pointers in device code is an error too. The
// analysis is conservative: an indirect call in device code may call every
// device function of its type whose address device code takes, and a cycle
// through such an edge is reported at the indirect call.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

int fact(int n) __device(hpp);
int fact(int n) __device(hpp) {
  int (*q)(int) = fact;
  return n <= 1 ? 1 : n * q(n - 1);
}
// CHECK-MESSAGES: recursive-device-function-pointer.cpp:[[@LINE-2]]:27: error: indirect call in device code that may call 'fact', which reaches this call: device functions must not recurse, through a function pointer either [hpp-recursive-device-function]
// CHECK-MESSAGES: recursive-device-function-pointer.cpp:[[@LINE-4]]:19: note: the address of 'fact' is taken in device code here; an indirect call may call any device function of its type whose address device code takes
// CHECK-MESSAGES: recursive-device-function-pointer.cpp:[[@LINE-7]]:5: note: 'fact' declared here

// Through a function that calls what it is given.
__device(hpp) long call(long (*f)(long), long k) { return f(k); }
__device(hpp) long down(long k) { return k == 0 ? 0 : call(&down, k - 1); }
// CHECK-MESSAGES: recursive-device-function-pointer.cpp:[[@LINE-1]]:55: error: recursive call to 'call' in device code, through a function pointer; device functions must not recurse [hpp-recursive-device-function]
// CHECK-MESSAGES: recursive-device-function-pointer.cpp:[[@LINE-3]]:59: note: this indirect call may call 'down', a device function of its type whose address device code takes
// CHECK-MESSAGES: recursive-device-function-pointer.cpp:[[@LINE-3]]:61: note: the address of 'down' is taken here
// CHECK-MESSAGES: recursive-device-function-pointer.cpp:[[@LINE-5]]:20: note: 'call' declared here

// Not recursive: `sq` (whose address an indirect call of `fact`'s type
// may also reach) calls nothing, and `twice` has another type than the
// pointers above.
__device(hpp) int sq(int x) { return x * x; }
__device(hpp) float twice(float x) { return 2 * x; }
__device(hpp) int apply(int (*f)(int), int x) { return f(x); }
__device(hpp) float applyF(float (*f)(float), float x) { return f(x); }

void h(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = fact(3) + static_cast<int>(down(2)) + apply(sq, 2) +
                  static_cast<int>(applyF(twice, 1.0f));
  });
}
// CHECK-MESSAGES-NOT: 'sq'
// CHECK-MESSAGES-NOT: 'twice'
// CHECK-MESSAGES: 2 errors generated.
