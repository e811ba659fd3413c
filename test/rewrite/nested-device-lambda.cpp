// A __device(hpp) lambda inside a parallelFor body is device code already:
// its mark is dropped, and the edit moves with the outlined body. A generic
// body (auto index) and fully qualified names work too.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: %t.exe
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

__device(hpp) float twice(float x) {
  auto d = [](float y) __device(hpp) { return 2 * y; };
  return d(x);
}
// CHECK: __host__ __device__ float twice(float x) {
// CHECK-NEXT: auto d = [](float y) { return 2 * y; };

void squares(hpp::Pointer<float> p, int n) {
  hpp::parallelFor(hpp::Range<1>(n), [=](auto i) __device(hpp) {
    auto sq = [](float x) __device(hpp) { return x * x; };
    p[i.getX()] = sq(p[i.getX()]) + twice(0);
  });
}
// CHECK: __global__ void hpp_squares_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<float> p) {
// CHECK: auto sq = [](float x) { return x * x; };
// CHECK: hpp::launchKernel(hpp_squares_pfor0, hpp::Range<1>(n), p);
// CHECK-NOT: __device(

int main() {
  hpp::Pointer<float> p = hpp::allocate<float>(300);
  for (int i = 0; i < 300; ++i)
    p[i] = float(i);
  squares(p, 300);
  for (int i = 0; i < 300; ++i)
    if (p[i] != float(i) * float(i))
      return 1;
  hpp::deallocate(p);
  return 0;
}
