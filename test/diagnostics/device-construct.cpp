// What nvcc and hipcc do not compile for the device is refused in device
// code, at the construct (the reference runs it on the CPU): exceptions,
// run-time type information, variable-length arrays, thread_local. Host
// code keeps them.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[hpp-'
// RUN: not test -e %t.out

#include <hpp/hpp.h>

#include <typeinfo>

using namespace hpp;

struct Base {
  virtual ~Base() = default;
};
struct Derived : Base {};

__device(hpp) int helper(int x) {
  if (x < 0)
    throw x;
  // CHECK-MESSAGES: device-construct.cpp:[[@LINE-1]]:5: error: device code uses a 'throw': GPUs have no exceptions; nvcc and hipcc do not compile it for the device [hpp-device-construct]
  return x;
}

void kernels(Pointer<int> p, int n, Base *b) {
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    try {
      // CHECK-MESSAGES: device-construct.cpp:[[@LINE-1]]:5: error: device code uses a 'try' block: GPUs have no exceptions{{.*}}[hpp-device-construct]
      p[i] = helper(int(i.getX()));
    } catch (...) {
      p[i] = -1;
    }
    int vla[n];
    // CHECK-MESSAGES: device-construct.cpp:[[@LINE-1]]:9: error: device code uses a variable-length array: its size must be a constant in device code{{.*}}[hpp-device-construct]
    vla[0] = 1;
    thread_local int counter = 0;
    // CHECK-MESSAGES: device-construct.cpp:[[@LINE-1]]:22: error: device code uses a 'thread_local' variable{{.*}}[hpp-device-construct]
    (void)typeid(*b);
    // CHECK-MESSAGES: device-construct.cpp:[[@LINE-1]]:11: error: device code uses 'typeid' of a polymorphic object{{.*}}[hpp-device-construct]
    p[i] += vla[0];
    p[i] += dynamic_cast<Derived *>(b) != nullptr;
    // CHECK-MESSAGES: device-construct.cpp:[[@LINE-1]]:13: error: device code uses a 'dynamic_cast'{{.*}}[hpp-device-construct]
  });
  // Host code: no error.
  try {
    if (n < 0)
      throw n;
  } catch (int) {
  }
}
