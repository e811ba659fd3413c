// A lambda passed to parallelFor without __device(hpp) is an error with a
// fix-it that inserts the annotation.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out
// RUN: not %hpp_rewrite %s -- -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIXIT

#include <hpp/hpp.h>
using namespace hpp;

void k(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) { p[i.getX()] = 0; });
  // CHECK-MESSAGES: missing-device-annotation.cpp:[[@LINE-1]]:28: error: the lambda passed to parallelFor is not marked '__device(hpp)' [hpp-missing-device-annotation]
  // CHECK-MESSAGES: :[[@LINE-2]]:44: note: device code must be marked
  // FIXIT: fix-it:"{{.*}}missing-device-annotation.cpp":{[[@LINE-3]]:44-[[@LINE-3]]:44}:"__device(hpp) "
}
