// Range<N,N>: the kernel takes the global and local range; local and group
// accessors read the launch's work-group shape.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

void groups(Pointer<int> g, int n) {
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(64)),
              [=](Index<1, 1> i) __device(hpp) {
                g[i.getX()] = int(i.getGroupX() * i.getLocalSizeX() + i.getLocalX());
              });
}
// CHECK: __global__ void hpp_groups_pfor0(hpp::Range<1, 1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<int> g) {
// CHECK-NEXT:   hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK:        {
// CHECK-NEXT:     g[i.getX()] = int(i.getGroupX() * i.getLocalSizeX() + i.getLocalX());
// CHECK-NEXT:   }
// CHECK: hpp::launchKernel(hpp_groups_pfor0, Range<1, 1>(Range<1>(n), Range<1>(64)), g);

void tiles(Pointer<float> t, Range<2, 2> r) {
  parallelFor(r, [=](Index<2, 2> i) __device(hpp) {
    t[i.getY() * i.getGlobalSizeX() + i.getX()] = float(i.getLocalY());
  });
}
// CHECK: __global__ void hpp_tiles_pfor0(hpp::Range<2, 2> hpp_range,
// CHECK-NEXT: const hpp::Pointer<float> t) {
// CHECK: hpp::launchKernel(hpp_tiles_pfor0, r, t);
