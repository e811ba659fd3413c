// The `__device(hpp)` of a lambda written inside a macro's argument is text
// of the file: the mark is dropped there and the call around it stays.
// Before, the edit took the whole macro call (`auto sq = ;`, silently).
// Neighbours: in a parallelFor body, in a __device(hpp) function, in a
// Task body, in a host function (a lambda run on the host), through two
// macros, in an argument used twice, and a mark a macro of its own spells
// (`DEV`, whose use is dropped). A mark a macro's body writes is refused
// (test/diagnostics/device-annotation.cpp, transformer-macro-guard.cpp).
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I%hpp_include %s -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32 && env HPP_CPU_MVECTOR=64 %t.ref > %t.ref64
// RUN: env HPP_CPU_MVECTOR=32 %t.exe > %t.out32 && env HPP_CPU_MVECTOR=64 %t.exe > %t.out64
// RUN: diff %t.ref32 %t.out32 && diff %t.ref64 %t.out64 && diff %t.ref32 %t.ref64
// RUN: FileCheck %s --check-prefix=RESULT < %t.out64
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
#include <cstdio>
#include <vector>

#define WRAP(x) x
#define CALL(f, v) (f)(v)
#define BOTH(x) ((x)(1) + (x)(2))
#define DEV __device(hpp)

__device(hpp) float twice(float x) {
  auto d = WRAP([](float y) __device(hpp) { return 2 * y; });
  return d(x) + BOTH([](float y) __device(hpp) { return y; });
}
// CHECK: __host__ __device__ float twice(float x) {
// CHECK-NEXT: auto d = WRAP([](float y) { return 2 * y; });
// CHECK-NEXT: return d(x) + BOTH([](float y) { return y; });

void squares(hpp::Pointer<float> p, int n) {
  hpp::parallelFor(hpp::Range<1>(n), [=](hpp::Index<1> i) __device(hpp) {
    auto sq = WRAP([](float x) __device(hpp) { return x * x; });
    auto one = WRAP(WRAP([](float x) __device(hpp) { return x + 1; }));
    auto half = [](float x) DEV { return x / 2; };
    p[i.getX()] = CALL(one, sq(p[i.getX()])) + half(twice(1));
  });
}
// CHECK: auto sq = WRAP([](float x) { return x * x; });
// CHECK-NEXT: auto one = WRAP(WRAP([](float x) { return x + 1; }));
// CHECK-NEXT: auto half = [](float x) { return x / 2; };

int taskSum(int n) {
  hpp::Task<int, hpp::Index<1, 1>> t([=](hpp::Index<1, 1> i) __device(hpp) {
    auto id = WRAP([](int v) __device(hpp) { return v; });
    return id(int(i.getX()));
  });
  int s = 0;
  for (int v : t.enqueue(hpp::Range<1, 1>(n, 32)).get())
    s += v;
  return s;
}
// CHECK: auto id = WRAP([](int v) { return v; });
// CHECK-NOT: __device(

int main() {
  auto host = WRAP([](int v) __device(hpp) { return v + 40; });
  // CHECK: auto host = WRAP([](int v) { return v + 40; });
  hpp::Pointer<float> p = hpp::allocate<float>(100);
  for (int i = 0; i < 100; ++i)
    p[i] = float(i);
  squares(p, 100);
  double sum = 0;
  for (int i = 0; i < 100; ++i)
    sum += p[i];
  hpp::deallocate(p);
  std::printf("sum=%.0f host=%d task=%d\n", sum, host(2), taskSum(64));
  // RESULT: sum=328700 host=42 task=2016
  return 0;
}
