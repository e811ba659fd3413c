// Several parallelFor calls in one function get numbered kernels, all placed
// before the function; overloads get distinct names; names are stable.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp
// RUN: %hpp_rewrite %s | diff %t.cpp -

#include <hpp/hpp.h>
using namespace hpp;

void step(Pointer<float> a, Pointer<float> b, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { a[i.getX()] += 1; });
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { b[i.getX()] = a[i.getX()]; });
}
void step(Pointer<int> a, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { a[i.getX()] += 1; });
}
// CHECK: __global__ void hpp_step_pfor0(
// CHECK: __global__ void hpp_step_pfor1(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<float> b,
// CHECK-NEXT: const hpp::Pointer<float> a) {
// CHECK-NEXT: hpp::Index<1> i
// CHECK: void step(Pointer<float> a, Pointer<float> b, int n) {
// CHECK-NEXT:   hpp::launchKernel(hpp_step_pfor0, Range<1>(n), a);
// CHECK-NEXT:   hpp::launchKernel(hpp_step_pfor1, Range<1>(n), b, a);
// CHECK: __global__ void hpp_step_pfor0_1(
// CHECK: void step(Pointer<int> a, int n) {
// CHECK-NEXT:   hpp::launchKernel(hpp_step_pfor0_1, Range<1>(n), a);
