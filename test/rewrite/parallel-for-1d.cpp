// A 1D parallelFor becomes a __global__ kernel and a checked launch; the
// dialect header becomes the runtime header.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

// CHECK: #include <hpp/runtime.h>
// CHECK-NOT: hpp/hpp.h

// CHECK: /// Outlined by hpp-rewrite from the parallelFor at parallel-for-1d.cpp:[[@LINE+9]]:3.
// CHECK-NEXT: __global__ void hpp_scale_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<float> data,
// CHECK-NEXT: const float factor) {
// CHECK-NEXT:   hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK-NEXT:   if (!i.inGlobalRange())
// CHECK-NEXT:     return;
// CHECK-NEXT:   {
void scale(Pointer<float> data, float factor, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    data[i.getX()] *= factor;
  });
}
// CHECK-NEXT:     data[i.getX()] *= factor;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK: void scale(Pointer<float> data, float factor, int n) {
// CHECK-NEXT:   hpp::launchKernel(hpp_scale_pfor0, Range<1>(n), data, factor);
// CHECK-NEXT: }
// CHECK-NOT: parallelFor
// CHECK-NOT: __device(hpp)
