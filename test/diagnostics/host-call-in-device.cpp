// Device code may call __device(hpp), inline and template functions only;
// a plain host function is an error naming it, with a fix-it. Of the
// host's C++ library, nvcc compiles only the math functions, std::move and
// std::forward for the device: std::max and std::min (constexpr: host code
// for nvcc) are errors with a fix-it to hpp::math::max and min, and
// std::vector, std::pair's constructors, std::numeric_limits and std::swap
// are errors; std::sqrt, std::fabs, std::abs and std::move are not.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out
// RUN: not %hpp_rewrite %s -- -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIXIT

#include <hpp/hpp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

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

void library(Pointer<float> p, Pointer<int> q) {
  parallelFor(Range<1>(8), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    q[i] = std::max(x, 3) + std::min<int>(x, 5);
    // CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-1]]:12: error: device code calls 'std::max' of the host's C++ library, which nvcc does not compile for the device [hpp-host-call-in-device]
    // CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-2]]:12: note: use hpp::math::max, which the dialect defines for host and device code alike
    // CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-3]]:29: error: device code calls 'std::min' of the host's C++ library{{.*}}
    // FIXIT: fix-it:"{{.*}}host-call-in-device.cpp":{[[@LINE-4]]:12-[[@LINE-4]]:20}:"hpp::math::max"
    // FIXIT: fix-it:"{{.*}}host-call-in-device.cpp":{[[@LINE-5]]:29-[[@LINE-5]]:37}:"hpp::math::min"
    p[i] = std::sqrt(p[i]) + std::fabs(p[i]) + float(std::abs(x)) + std::move(p[i]);
    std::vector<int> v(3, 1);
    // CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-1]]:22: error: device code calls 'std::vector<int>::vector' of the host's C++ library{{.*}}
    // CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-2]]:22: note: only the math functions of <cmath> and <cstdlib>, std::move and std::forward are device code there (constexpr functions only with --expt-relaxed-constexpr); write the operation in the body or in a __device(hpp) function
    std::pair<int, int> pr(x, 1);
    // CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-1]]:25: error: device code calls 'std::pair<int, int>::pair' of the host's C++ library{{.*}}
    p[i] += std::numeric_limits<float>::epsilon() + float(pr.first + v[0]);
    // CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-1]]:13: error: device code calls 'std::numeric_limits<float>::epsilon' of the host's C++ library{{.*}}
    int y = 2;
    std::swap(x, y);
    // CHECK-MESSAGES: host-call-in-device.cpp:[[@LINE-1]]:5: error: device code calls 'std::swap' of the host's C++ library{{.*}}
  });
}
// CHECK-MESSAGES-NOT: 'std::sqrt'
// CHECK-MESSAGES-NOT: 'std::fabs'
// CHECK-MESSAGES-NOT: 'std::abs'
// CHECK-MESSAGES-NOT: 'std::move'
