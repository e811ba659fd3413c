// `__device(hpp)` where no kernel body holds it:
//  - on a lambda written in host code that device code never calls, the
//    mark is dropped (nvcc rejects an execution space written on a lambda
//    without --extended-lambda; the lambda runs on the host);
//  - on a lambda in an inline function that device code calls, it is
//    dropped as in any device code;
//  - written by a macro in front of a function's declaration, it stays:
//    the runtime defines `__device(hpp)` as `__host__ __device__`
//    (runtime/hpp/annotations.h), as the tool would have rewritten it.
// The misplaced forms are errors: test/diagnostics/device-annotation.cpp.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

#define DEFINE_SQ(T)                                                           \
  __device(hpp) T sq_##T(T x) { return x * x; }
DEFINE_SQ(int)
DEFINE_SQ(float)
// CHECK:      #define DEFINE_SQ(T)
// CHECK-NEXT:   __device(hpp) T sq_##T(T x) { return x * x; }
// CHECK-NEXT: DEFINE_SQ(int)
// CHECK-NEXT: DEFINE_SQ(float)

#define DEFINE_CUBE __device(hpp) int cube(int x) { return x * x * x; }
DEFINE_CUBE
// CHECK:      #define DEFINE_CUBE __device(hpp) int cube(int x) { return x * x * x; }
// CHECK-NEXT: DEFINE_CUBE

inline int twice(int x) {
  auto t = [](int y) __device(hpp) { return 2 * y; };
  return t(x);
}
// CHECK:      __host__ __device__ inline int twice(int x) {
// CHECK-NEXT:   auto t = [](int y) { return 2 * y; };

int main() {
  auto h = [](int x) __device(hpp) { return x + 1; };
  // CHECK: auto h = [](int x) { return x + 1; };
  const int n = 64;
  Pointer<int> p = allocate<int>(n);
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = sq_int(3) + static_cast<int>(sq_float(2.0f)) + cube(2) +
                  twice(5);
  });
  std::printf("%d %d %d\n", h(1), p[0], p[n - 1]);
  deallocate(p);
  return 0;
}
// OUT: 2 31 31
