// Capturing host memory by reference is an error with a fix-it; Pointer
// and Atomic references are fine. Nothing is written on error.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

void f(Pointer<int> p, int n) {
  int total = 0;
  parallelFor(Range<1>(n), [&total, p](Index<1> i) __device(hpp) { p[i.getX()] = total; });
  // FIXIT: fix-it:"{{.*}}host-reference-capture.cpp":{[[@LINE-1]]:29-[[@LINE-1]]:30}:""
  // CHECK-MESSAGES: host-reference-capture.cpp:[[@LINE-2]]:30: error: 'total' of type 'int' is captured by reference, but it lives in host memory that device code cannot access [hpp-host-reference-capture]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'total' declared here; capture it by value, or keep the data in a Pointer from allocate()
  float scale = 2;
  parallelFor(Range<1>(n), [&](Index<1> i) __device(hpp) { p[i.getX()] *= int(scale); });
  // FIXIT: fix-it:"{{.*}}host-reference-capture.cpp":{[[@LINE-1]]:29-[[@LINE-1]]:30}:"="
  // CHECK-MESSAGES: host-reference-capture.cpp:[[@LINE-2]]:79: error: 'scale' of type 'float' is captured by reference{{.*}}[hpp-host-reference-capture]
  parallelFor(Range<1>(n), [&](Index<1> i) __device(hpp) { p[i.getX()] = 1; });
  // With a `=` default, `[=, total]` would be ill-formed: the fix removes
  // `, &total`.
  parallelFor(Range<1>(n), [=, &total](Index<1> i) __device(hpp) { p[i.getX()] = total; });
  // FIXIT: fix-it:"{{.*}}host-reference-capture.cpp":{[[@LINE-1]]:30-[[@LINE-1]]:38}:""
  // CHECK-MESSAGES: host-reference-capture.cpp:[[@LINE-2]]:33: error: 'total' of type 'int' is captured by reference{{.*}}[hpp-host-reference-capture]
}
// CHECK-MESSAGES-NOT: 'p' of type
// RUN: not %hpp_rewrite %s -- -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIXIT
