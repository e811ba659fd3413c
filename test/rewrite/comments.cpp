// Line and block comments inside the body survive outlining; a doc comment
// stays attached to its function (the kernel goes above it).
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

/// Squares every element.
void square(Pointer<int> v, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    // one work-item per element
    int x = v[i.getX()]; /* read once */
    v[i.getX()] = x * x; // write back
  });
}
// CHECK: __global__ void hpp_square_pfor0(
// CHECK:        return;
// CHECK-NEXT:   {
// CHECK-NEXT:     // one work-item per element
// CHECK-NEXT:     int x = v[i.getX()]; /* read once */
// CHECK-NEXT:     v[i.getX()] = x * x; // write back
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: /// Squares every element.
// CHECK-NEXT: void square(Pointer<int> v, int n) {
