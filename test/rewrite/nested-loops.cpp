// Loops, branches and early returns in the body are kept as written; the
// body is re-indented as a block, relative indentation preserved.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

namespace lib {
void stencil(Pointer<double> out, Pointer<const double> in, int n, int r) {
    parallelFor(Range<2>(n, n), [=](Index<2> p) __device(hpp) {
        int x = int(p.getX()), y = int(p.getY());
        if (x < r || y < r || x >= n - r || y >= n - r)
            return;
        double acc = 0;
        for (int dy = -r; dy <= r; ++dy)
            for (int dx = -r; dx <= r; ++dx) {
                acc += in[(y + dy) * n + (x + dx)];
            }
        out[y * n + x] = acc;
    });
}
} // namespace lib
// CHECK:      namespace lib {
// CHECK-NEXT: /// Outlined by hpp-rewrite
// CHECK-NEXT: __global__ void hpp_stencil_pfor0(
// CHECK:        return;
// CHECK-NEXT:   {
// CHECK-NEXT:       int x = int(p.getX()), y = int(p.getY());
// CHECK-NEXT:       if (x < r || y < r || x >= n - r || y >= n - r)
// CHECK-NEXT:           return;
// CHECK-NEXT:       double acc = 0;
// CHECK-NEXT:       for (int dy = -r; dy <= r; ++dy)
// CHECK-NEXT:           for (int dx = -r; dx <= r; ++dx) {
// CHECK-NEXT:               acc += in[(y + dy) * n + (x + dx)];
// CHECK-NEXT:           }
// CHECK-NEXT:       out[y * n + x] = acc;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK: void stencil(
// CHECK-NEXT:     hpp::launchKernel(hpp_stencil_pfor0, Range<2>(n, n), r, n, in, out);
