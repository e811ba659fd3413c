// A 2D range: the kernel's range and index are 2D; X and Y accessors are
// kept as written.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

void transpose(Pointer<int> in, Pointer<int> out, int w, int h) {
  parallelFor(Range<2>(w, h), [=](Index<2> p) __device(hpp) {
    out[p.getX() * h + p.getY()] = in[p.getY() * w + p.getX()];
  });
}
// CHECK: __global__ void hpp_transpose_pfor0(hpp::Range<2> hpp_range,
// CHECK-NEXT: const hpp::Pointer<int> out, const int h,
// CHECK-NEXT: const hpp::Pointer<int> in, const int w) {
// CHECK-NEXT: hpp::Index<2> p = hpp::detail::kernelIndex(hpp_range);
// CHECK: out[p.getX() * h + p.getY()] = in[p.getY() * w + p.getX()];
// CHECK: hpp::launchKernel(hpp_transpose_pfor0, Range<2>(w, h), out, h, in, w);
