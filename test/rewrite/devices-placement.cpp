// parallelFor on a device, written the ways real code writes it: the device
// from a macro with a comment after it and the call qualified, a
// conditional device and a range from a macro, in a member function, in a
// host lambda with the device from a call, and over several lines in
// parentheses. Each becomes `hpp::launchKernel(<device as written>,
// <kernel>, <range>, ...)`; the reference and the rewritten program print
// the same at 1 and 3 simulated devices; the output compiles for sm_90,
// gfx90a and gfx1030.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_DEVICES=1 %t.ref > %t.ref1
// RUN: env HPP_CPU_DEVICES=3 HPP_CPU_MVECTOR=64 %t.ref > %t.ref3
// RUN: env HPP_CPU_DEVICES=3 HPP_CPU_MVECTOR=64 %t.exe > %t.gen3
// RUN: diff %t.ref1 %t.ref3
// RUN: diff %t.ref1 %t.gen3
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.ref1
// RUN: %gpu_check %t.cpp
//
// CHECK: hpp::launchKernel(on, hpp_Grid_fill_pfor0, hpp::Range<1>(n), q, v);
// CHECK: hpp::launchKernel(LAST, hpp_main_pfor0, Range<1>(n), a);
// CHECK: hpp::launchKernel(n > 50 ? last : Device(0), hpp_main_pfor1, RANGE(n), a);
// CHECK: hpp::launchKernel(getDevices()[getDeviceCount() - 1], hpp_main_pfor2, Range<1, 1>(n, 32), a, k);
// CHECK: hpp::launchKernel((a.getDevice()), hpp_main_pfor3, Range<2>(10, 10), a);
//
// OUT: macro: 100
// OUT-NEXT: ternary: 300
// OUT-NEXT: member: 5450
// OUT-NEXT: lambda: 700
// OUT-NEXT: multiline: 450
// OUT-NOT: {{.}}

#include <hpp/hpp.h>
#include <cstdio>

#define LAST hpp::Device(hpp::getDeviceCount() - 1)
#define RANGE(n) hpp::Range<1>(n)

struct Grid {
  hpp::Pointer<int> p;
  std::size_t n;
  hpp::Device on;
  void fill(int v) {
    hpp::Pointer<int> q = p;
    hpp::parallelFor(on, hpp::Range<1>(n),
                     [=](hpp::Index<1> i) __device(hpp) { q[i] = v + int(i); });
  }
};

static int sum(hpp::Pointer<int> p, std::size_t n) {
  int s = 0;
  for (std::size_t i = 0; i < n; ++i) s += p[i];
  return s;
}

int main() {
  using namespace hpp;
  const std::size_t n = 100;
  Device last = LAST;
  Pointer<int> a = allocate<int>(n, last);
  // A macro device, a comment between the arguments, qualified call.
  hpp::parallelFor(LAST /* the last */ , Range<1>(n), [=](Index<1> i) __device(hpp) { a[i] = 1; });
  std::printf("macro: %d\n", sum(a, n));
  // A conditional device expression and a range from a macro.
  parallelFor(n > 50 ? last : Device(0), RANGE(n), [=](Index<1> i) __device(hpp) { a[i] += 2; });
  std::printf("ternary: %d\n", sum(a, n));
  // A member function.
  Grid g{a, n, a.getDevice()};
  g.fill(5);
  std::printf("member: %d\n", sum(a, n));
  // Inside a host lambda, device from a call.
  auto run = [&](int k) {
    parallelFor(getDevices()[getDeviceCount() - 1], Range<1, 1>(n, 32),
                [=](Index<1, 1> i) __device(hpp) { a[i] = k; });
  };
  run(7);
  std::printf("lambda: %d\n", sum(a, n));
  // Device written over lines, with a parenthesised expression.
  parallelFor(
      (a.getDevice()),
      Range<2>(10, 10),
      [=](Index<2> i) __device(hpp) { a[i.getY() * 10 + i.getX()] = int(i.getX()); });
  std::printf("multiline: %d\n", sum(a, n));
  deallocate(a);
  return 0;
}
