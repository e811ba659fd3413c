// [=] and [&] captures: each variable the body uses becomes a parameter, in
// order of first use; a Pointer captured by reference is passed by value,
// and an Atomic reference into allocated memory becomes a pointer.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

void count(Pointer<int> v, Pointer<Atomic<int>> hits, int limit, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    if (v[i.getX()] > limit)
      hits[0].add(1);
  });
  Atomic<int> &total = hits[0];
  parallelFor(Range<1>(n), [&](Index<1> i) __device(hpp) {
    total.add(v[i.getX()]);
  });
}
// CHECK: __global__ void hpp_count_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<int> v, const int limit,
// CHECK-NEXT: const hpp::Pointer<hpp::Atomic<int>> hits) {
// CHECK: __global__ void hpp_count_pfor1(hpp::Range<1> hpp_range,
// CHECK-NEXT: hpp::Atomic<int> *const hpp_ref_total,
// CHECK-NEXT: const hpp::Pointer<int> v) {
// CHECK-NEXT:   hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK-NEXT:   if (!i.inGlobalRange())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Atomic<int> &total = *hpp_ref_total;
// CHECK: hpp::launchKernel(hpp_count_pfor0, Range<1>(n), v, limit, hits);
// CHECK: hpp::launchKernel(hpp_count_pfor1, Range<1>(n), &total, v);
