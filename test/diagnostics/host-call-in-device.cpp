// Device code may call __device(hpp), inline and template functions only;
// a plain host function is an error naming it, with a fix-it.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out
// RUN: not %hpp_rewrite %s -- -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIXIT

#include <hpp/hpp.h>
using namespace hpp;

float hostHelper(float x) { return x + 1; }
// FIXIT: fix-it:"{{.*}}host-call-in-device.cpp":{[[@LINE-1]]:1-[[@LINE-1]]:1}:"__device(hpp) "
inline float fine(float x) { return x * 2; }

__device(hpp) float deviceHelper(float x) { return hostHelper(x); }
// CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-1]]:52: error: device code calls 'hostHelper', which is not '__device(hpp)', inline or a template [hpp-host-call-in-device]
// CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-6]]:7: note: 'hostHelper' declared here; mark it '__device(hpp)' to compile it for the device

void g(Pointer<float> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = fine(hostHelper(p[i.getX()]));
    // CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-1]]:24: error: device code calls 'hostHelper'{{.*}}[hpp-host-call-in-device]
  });
}
// CHECK-MESSAGES-NOT: 'fine'
