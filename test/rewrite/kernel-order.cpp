// Kernels are numbered and emitted in source order, whatever nests the
// calls (loops, conditions, lambdas), as docs/design.md says.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;

// CHECK: __global__ void hpp_main_pfor0(
// CHECK: { p[i.getX()] += 1; }
// CHECK: __global__ void hpp_main_pfor1(
// CHECK: { p[i.getX()] += 10; }
// CHECK: __global__ void hpp_main_pfor2(
// CHECK: { p[i.getX()] += 100; }
// CHECK: __global__ void hpp_main_pfor3(
// CHECK: { p[i.getX()] += 1000; }
// CHECK: __global__ void hpp_main_pfor4(
// CHECK: { p[i.getX()] += 10000; }
int main() {
  Pointer<int> p = allocate<int>(64);
  for (int r = 0; r < 2; ++r) {
    parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) { p[i.getX()] += 1; });
    // CHECK: hpp::launchKernel(hpp_main_pfor0,
    if (r)
      parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) { p[i.getX()] += 10; });
    // CHECK: hpp::launchKernel(hpp_main_pfor1,
  }
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) { p[i.getX()] += 100; });
  // CHECK: hpp::launchKernel(hpp_main_pfor2,
  auto f = [=] {
    parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) { p[i.getX()] += 1000; });
    // CHECK: hpp::launchKernel(hpp_main_pfor3,
  };
  f();
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) { p[i.getX()] += 10000; });
  // CHECK: hpp::launchKernel(hpp_main_pfor4,
  std::printf("p[63] = %d\n", p[63]);
  deallocate(p);
}
// OUT: p[63] = 11112
