// Line and block comments inside the body survive outlining; a doc comment
// stays attached to its function (the kernel goes above it).
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -x cu -c %t.cpp -o %t.nv.o %}
// RUN: %if hipcc %{ %hipcc -x hip --offload-arch=gfx90a --cuda-device-only -c %t.cpp -o %t.gfx90a.o %}
// RUN: %if hipcc %{ %hipcc -x hip --offload-arch=gfx1030 --cuda-device-only -c %t.cpp -o %t.gfx1030.o %}

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
