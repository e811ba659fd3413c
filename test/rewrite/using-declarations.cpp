// The using-declaration of parallelFor is removed (every call becomes a
// launch, and the runtime has no parallelFor); the other using-declarations
// of the dialect stay and name the runtime's types and functions.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s --implicit-check-not="using hpp::parallelFor"
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
#include <cstdio>
// CHECK: #include <cstdio>
// CHECK-NEXT: using hpp::Range;
// CHECK-NEXT: using hpp::Index;
using hpp::parallelFor;
using hpp::Range;
using hpp::Index;
using hpp::Pointer;
using hpp::allocate;
using hpp::deallocate;

int main() {
  using hpp::parallelFor;
  Pointer<int> p = allocate<int>(64);
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) { p[i.getX()] = 2 * int(i.getX()); });
  int sum = 0;
  for (int e = 0; e < 64; ++e)
    sum += p[e];
  std::printf("sum %d\n", sum);
  deallocate(p);
}
// OUT: sum 4032
