// `__device(hpp)` written after a function's parameter list (accepted by
// the CPU runtime, the tool and hipcc) becomes qualifiers at the front of
// the declaration: nvcc rejects attributes after the declarator of a
// definition ("attributes are not permitted in a function definition").
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
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

// CHECK: __host__ __device__ int twice(int x) { return 2 * x; }
int twice(int x) __device(hpp) { return 2 * x; }
// CHECK: __host__ __device__ static inline int thrice(int x);
// CHECK-NEXT: __host__ __device__ static inline int thrice(int x) { return 3 * x; }
static inline int thrice(int x) __device(hpp);
static inline int thrice(int x) __device(hpp) { return 3 * x; }
// CHECK: template <class T> __host__ __device__ T add(T a, T b) { return a + b; }
template <class T> T add(T a, T b) __device(hpp) { return a + b; }
struct Scale {
  int k;
  // CHECK: __host__ __device__ int apply(int x) const { return k * x; }
  int apply(int x) const __device(hpp) { return k * x; }
};

int main() {
  Pointer<int> p = allocate<int>(64);
  Scale s{5};
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = twice(1) + thrice(1) + add(1, 2) + s.apply(int(i.getX()));
  });
  int sum = 0;
  for (int e = 0; e < 64; ++e)
    sum += p[e];
  std::printf("sum %d\n", sum);
  deallocate(p);
}
// 64 * 8 + 5 * 2016 = 10592.
// OUT: sum 10592
