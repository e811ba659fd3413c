// A 3D range with every global accessor and the OpenCL spellings.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

void fill(Pointer<unsigned> v, unsigned nx, unsigned ny, unsigned nz) {
  parallelFor(Range<3>(nx, ny, nz), [=](Index<3> q) __device(hpp) {
    size_t lin = (q.getZ() * ny + q.getY()) * nx + q.getX();
    v[lin] = static_cast<unsigned>(q.get_global_id(2) + q.get_local_size(0));
  });
}
// CHECK: __global__ void hpp_fill_pfor0(hpp::Range<3> hpp_range, const unsigned int ny,
// CHECK-NEXT: const unsigned int nx,
// CHECK-NEXT: const hpp::Pointer<unsigned int> v) {
// CHECK-NEXT: hpp::Index<3> q = hpp::detail::kernelIndex(hpp_range);
// CHECK: size_t lin = (q.getZ() * ny + q.getY()) * nx + q.getX();
// CHECK: hpp::launchKernel(hpp_fill_pfor0, Range<3>(nx, ny, nz), ny, nx, v);
