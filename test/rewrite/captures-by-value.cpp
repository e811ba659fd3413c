// Explicit by-value captures of scalars, Pointers and a struct become kernel
// parameters in capture order; a mutable lambda's parameters are not const;
// an init-capture passes its initializer.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

namespace geo {
struct Affine {
  float a, b;
};
} // namespace geo

void apply(Pointer<float> x, geo::Affine f, double bias, long n) {
  parallelFor(Range<1>(n), [x, f, bias](Index<1> i) __device(hpp) {
    x[i.getX()] = f.a * x[i.getX()] + f.b + float(bias);
  });
  parallelFor(Range<1>(n), [x, k = n * 2](Index<1> i) __device(hpp) mutable {
    k += 1;
    x[i.getX()] += float(k);
  });
}
// CHECK: __global__ void hpp_apply_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<float> x,
// CHECK-NEXT: const geo::Affine f, const double bias) {
// CHECK: __global__ void hpp_apply_pfor1(hpp::Range<1> hpp_range, hpp::Pointer<float> x,
// CHECK-NEXT: long k) {
// CHECK: hpp::launchKernel(hpp_apply_pfor0, Range<1>(n), x, f, bias);
// CHECK: hpp::launchKernel(hpp_apply_pfor1, Range<1>(n), x, n * 2);
