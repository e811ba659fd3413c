// Where a parallelFor cannot be outlined, the tool says so at the call
// instead of writing a wrong kernel: a body that comes from a macro (it used
// to become an empty kernel), a variable template's initialiser, and a
// device argument of a template parameter's type.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

#define BODY(p) [=](Index<1> i) __device(hpp) { p[i.getX()] = int(i.getX()); }

void fromMacro(Pointer<int> p) {
  parallelFor(Range<1>(64), BODY(p));
  // CHECK-MESSAGES: parallel-for-placement.cpp:[[@LINE-1]]:29: error: cannot outline a parallelFor body written through a macro; write the lambda in the call [hpp-parallel-for]
}

template <class T>
T zero = (parallelFor(Range<1>(64), [](Index<1> i) __device(hpp) {}), T());
// CHECK-MESSAGES: parallel-for-placement.cpp:[[@LINE-1]]:37: error: cannot outline: a parallelFor in a variable template's initialiser; call it from a function [hpp-parallel-for]

int useZero() { return zero<int>; }

// A device argument whose type is a template parameter: the tool cannot
// tell a device from a range there (spec 7: the device is an hpp::Device).
template <class D> void onDevice(D d, Pointer<int> p) {
  parallelFor(d, Range<1>(10), [=](Index<1> i) __device(hpp) { p[i] = 1; });
  // CHECK-MESSAGES: parallel-for-placement.cpp:[[@LINE-1]]:15: error: cannot outline: the type of parallelFor's first argument depends on a template parameter; a device argument must be an hpp::Device (write the parameter as hpp::Device) [hpp-parallel-for]
}
void useOnDevice(Pointer<int> p) { onDevice(Device(0), p); }
