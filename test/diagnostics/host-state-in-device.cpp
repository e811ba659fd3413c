// Device code sees only what its kernel is passed. A variable in host memory
// named in device code, or a by-value capture whose copy runs host code, is
// an error at the use (nvcc and hipcc would reject the output, or the
// kernel would read a host address). Scalar constants are fine: the device
// compilers fold them; not one initialised with the warp width.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="error:"
// RUN: not test -e %t.out

#include <hpp/hpp.h>
#include <string>
#include <vector>
using namespace hpp;

static Pointer<int> buf;
int counter = 3;
struct Config {
  int a;
};
Config cfg{4};
struct Table {
  static int scale;
};
int Table::scale = 2;
struct Tracked {
  int v = 0;
  Tracked() = default;
  Tracked(const Tracked &O) : v(O.v + 1) {}
};

constexpr int kScale = 2;
const int kOffset = 5;
const float kHalf = 0.5f;
enum { kEnum = 3 };
// Initialised with the warp width: a constant only while the tool parses
// (an error of its own outside a function: hpp-host-warp-size).
const int kLanes = warpSize;
// CHECK-MESSAGES-DAG: host-state-in-device.cpp:[[@LINE-1]]:20: error: {{.*}} 'kLanes' outside a function [hpp-host-warp-size]

__device(hpp) int helper(int x) {
  return x * counter;
  // CHECK-MESSAGES-DAG: host-state-in-device.cpp:[[@LINE-1]]:14: error: device code reads 'counter', which lives in host memory; a kernel sees only what it is passed [hpp-host-state-in-device]
  // CHECK-MESSAGES-DAG: host-state-in-device.cpp:15:5: note: 'counter' declared here; copy it into a local variable before the parallelFor and capture that, or make it a constexpr scalar
}

void run(Pointer<int> p) {
  static int local = 7;
  std::vector<int> v(64, 1);
  std::string name = "x";
  Tracked t;
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = kScale * kOffset + int(kHalf) + kEnum + helper(1);
    buf[0] = 1;
    // CHECK-MESSAGES-DAG: host-state-in-device.cpp:[[@LINE-1]]:5: error: device code reads 'buf'{{.*}}[hpp-host-state-in-device]
    p[1] = local + cfg.a + Table::scale;
    // CHECK-MESSAGES-DAG: host-state-in-device.cpp:[[@LINE-1]]:12: error: device code reads 'local'{{.*}}[hpp-host-state-in-device]
    // CHECK-MESSAGES-DAG: host-state-in-device.cpp:[[@LINE-2]]:20: error: device code reads 'cfg'{{.*}}[hpp-host-state-in-device]
    // CHECK-MESSAGES-DAG: host-state-in-device.cpp:[[@LINE-3]]:35: error: device code reads 'scale'{{.*}}[hpp-host-state-in-device]
    p[2] = kLanes;
    // CHECK-MESSAGES-DAG: host-state-in-device.cpp:[[@LINE-1]]:12: error: device code reads 'kLanes'{{.*}}[hpp-host-state-in-device]
  });
  parallelFor(Range<1>(64), [v, name, t, p](Index<1> i) __device(hpp) {
    p[i.getX()] = v[i.getX()] + int(name.size()) + t.v;
  });
  // CHECK-MESSAGES-DAG: host-state-in-device.cpp:[[@LINE-3]]:30: error: 'v' of type 'std::vector<int>' is captured by value, but a kernel can only be passed trivially copyable objects: copying or destroying it runs host code [hpp-host-state-in-device]
  // CHECK-MESSAGES-DAG: note: 'v' declared here; keep the data in a Pointer from allocate() and capture the Pointer
  // CHECK-MESSAGES-DAG: host-state-in-device.cpp:[[@LINE-5]]:33: error: 'name' of type{{.*}}is captured by value{{.*}}[hpp-host-state-in-device]
  // CHECK-MESSAGES-DAG: host-state-in-device.cpp:[[@LINE-6]]:39: error: 't' of type 'Tracked' is captured by value{{.*}}[hpp-host-state-in-device]
}
