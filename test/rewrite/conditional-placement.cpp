// A kernel never lands inside an #if branch that ends before its launch:
// a function whose signature line is chosen by #ifdef gets its kernel
// before the #ifdef, so the output builds in both configurations. Dialect
// code in an inactive branch is not rewritten: a warning says so.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %cxx_runtime -DWIDE_COUNT %t.cpp -o %t.wide.exe
// RUN: env HPP_CPU_MVECTOR=64 %t.wide.exe | FileCheck %s --check-prefix=OUT
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;

// CHECK: /// Outlined by hpp-rewrite from the parallelFor at conditional-placement.cpp:[[#@LINE+8]]:3.
// CHECK: __global__ void hpp_fill_pfor0(
// CHECK: #ifdef WIDE_COUNT
#ifdef WIDE_COUNT
void fill(Pointer<int> p, long n) {
#else
void fill(Pointer<int> p, int n) {
#endif
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i.getX()] = 7; });
#ifdef USE_OTHER_VALUE
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i.getX()] = 8; });
#endif
  // CHECK: #ifdef USE_OTHER_VALUE
  // CHECK-NEXT: parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i.getX()] = 8; });
}

int main() {
  Pointer<int> p = allocate<int>(64);
  fill(p, 64);
  std::printf("%d\n", int(p[5]));
  // OUT: 7
}
