// A parallelFor outside a function body is outlined before the declaration
// at namespace scope that holds it: a namespace-scope lambda's body, a
// global initialiser, a default argument, a default member initialiser and
// a static member's initialiser (these used to crash the tool).
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=64 %t.ref > %t.ref64
// RUN: diff %t.ref32 %t.ref64
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe > %t.gen32
// RUN: env HPP_CPU_MVECTOR=64 %t.exe > %t.gen64
// RUN: diff %t.ref32 %t.gen32
// RUN: diff %t.ref32 %t.gen64
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.gen32
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;

// CHECK: __global__ void hpp_global_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<int> p, const int v) {
// CHECK: auto fill = [](Pointer<int> p, int v) {
// CHECK-NEXT: hpp::launchKernel(hpp_global_pfor0, Range<1>(64), p, v);
auto fill = [](Pointer<int> p, int v) {
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = v + int(i.getX());
  });
  int sum = 0;
  for (int e = 0; e < 64; ++e)
    sum += p[e];
  return sum;
};

// CHECK: __global__ void hpp_global_pfor1(hpp::Range<1> hpp_range) {
// CHECK: int first = (hpp::launchKernel(hpp_global_pfor1, Range<1>(64)), 1);
int first = (parallelFor(Range<1>(64), [](Index<1> i) __device(hpp) {}), 1);

// CHECK: __global__ void hpp_global_pfor2(hpp::Range<1> hpp_range) {
// CHECK: int withDefault(int x = (hpp::launchKernel(hpp_global_pfor2, Range<1>(32)), 7)) {
int withDefault(int x = (parallelFor(Range<1>(32), [](Index<1> i) __device(hpp) {}), 7)) {
  return x;
}

// A default member initialiser: declared before the class, defined after.
// CHECK: __global__ void hpp_global_pfor3(hpp::Range<1> hpp_range);
// CHECK: struct Holder {
// CHECK-NEXT: int v = (hpp::launchKernel(hpp_global_pfor3, Range<1>(16)), 3);
// CHECK: };
// CHECK: __global__ void hpp_global_pfor3(hpp::Range<1> hpp_range) {
struct Holder {
  int v = (parallelFor(Range<1>(16), [](Index<1> i) __device(hpp) {}), 3);
  static int s;
};
// CHECK: __global__ void hpp_global_pfor4(hpp::Range<1> hpp_range) {
// CHECK: int Holder::s = (hpp::launchKernel(hpp_global_pfor4, Range<1>(8)), 4);
int Holder::s = (parallelFor(Range<1>(8), [](Index<1> i) __device(hpp) {}), 4);

int main() {
  Pointer<int> p = allocate<int>(64);
  const int sum = fill(p, 5);
  deallocate(p);
  // 64 * 5 + 0 + 1 + ... + 63 = 2336.
  std::printf("sum %d: %s\n", sum, sum == 2336 ? "ok" : "WRONG");
  std::printf("initialisers %d %d %d %d\n", first, withDefault(), Holder().v,
              Holder::s);
  std::printf("default argument twice %d\n", withDefault() + withDefault(1));
}
// OUT: sum 2336: ok
// OUT-NEXT: initialisers 1 7 3 4
// OUT-NEXT: default argument twice 8
