// Device code runs what a default argument, a constructor's member
// initializers and a default member initializer call: those helpers are
// reached from the kernel and become __host__ __device__ like any other
// helper it calls (before, the call graph walked only function bodies: the
// output compiled on the CPU backend, and nvcc and hipcc rejected it with
// "calling a __host__ function from a __global__ function"). The rewritten
// program prints what the reference prints at widths 32 and 64, and
// compiles for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I%hpp_include %s -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.gen
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=64 %t.gen | diff %t.ref32 -
// RUN: env HPP_CPU_MVECTOR=32 %t.gen | diff %t.ref32 -
// RUN: FileCheck %s --check-prefix=OUT < %t.ref32
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

// CHECK: __host__ __device__ inline int seven() { return 7; }
inline int seven() { return 7; }
// CHECK: __host__ __device__ inline int withDefault(int x, int y = seven()) { return x + y; }
inline int withDefault(int x, int y = seven()) { return x + y; }
// CHECK: __host__ __device__ inline int twice(int x) { return 2 * x; }
inline int twice(int x) { return 2 * x; }
// CHECK: __host__ __device__ inline int fourfold(int x) { return 4 * x; }
inline int fourfold(int x) { return 4 * x; }
// CHECK: __host__ __device__ inline int thrice(int x) { return 3 * x; }
inline int thrice(int x) { return 3 * x; }

struct Acc {
  int v;
  int w = fourfold(1);
  Acc(int x) : v(twice(x)) {}
};

/// A default member initializer run by the constructor the compiler writes.
struct Implicit {
  int u = thrice(5);
};

int main() {
  const int n = 64;
  Pointer<int> out = allocate<int>(n);
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = static_cast<int>(i.getX());
    Acc a(x);
    Implicit m;
    out[x] = withDefault(x) + a.v + a.w + m.u;
  });
  long sum = 0;
  for (int e = 0; e < n; ++e)
    sum += out[e];
  // OUT: sum=7712
  std::printf("sum=%ld\n", sum);
  return sum == 7712 ? 0 : 1;
}
