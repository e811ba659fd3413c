// A parallelFor in a function template: the kernel repeats the template's
// parameters (without default arguments) and the launch names them.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

template <class T, int Unroll = 2>
void axpy(T a, Pointer<T> x, Pointer<T> y, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    for (int u = 0; u < Unroll; ++u)
      y[i.getX()] += a * x[i.getX()];
  });
}
// CHECK: template <class T, int Unroll>
// CHECK-NEXT: __global__ void hpp_axpy_pfor0(hpp::Range<1> hpp_range, const hpp::Pointer<T> y,
// CHECK-NEXT: const T a, const hpp::Pointer<T> x) {
// CHECK: template <class T, int Unroll = 2>
// CHECK-NEXT: void axpy(T a, Pointer<T> x, Pointer<T> y, int n) {
// CHECK-NEXT:   hpp::launchKernel(hpp_axpy_pfor0<T, Unroll>, Range<1>(n), y, a, x);

template void axpy<float>(float, Pointer<float>, Pointer<float>, int);
template void axpy<double, 4>(double, Pointer<double>, Pointer<double>, int);
