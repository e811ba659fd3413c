// Captures and names a body takes from its function keep their meaning in
// the kernel: a class's public member type (a template parameter set at
// the launch), a class template's, a type from an extern "C" block,
// function-local aliases (the type they name), a parameter pack, and the
// function's using-declarations and directives (repeated in the kernel).
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

extern "C" {
struct CPoint {
  int x, y;
};
}

struct Outer {
  struct Inner {
    int a;
    float b;
  };
};

template <typename T> struct Holder {
  struct Pair {
    T x, y;
  };
};

namespace m {
inline int twice(int x) __device(hpp) { return 2 * x; }
inline int thrice(int x) __device(hpp) { return 3 * x; }
} // namespace m

// CHECK-LABEL: template <typename... Ts>
// CHECK-NEXT: __global__ void hpp_sumPack_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT:                                   const hpp::Pointer<int> p, Ts... ts) {
// CHECK: hpp::launchKernel(hpp_sumPack_pfor0<Ts...>, Range<1>(64), p, ts...);
template <typename... Ts> void sumPack(Pointer<int> p, Ts... ts) {
  parallelFor(Range<1>(64),
              [=](Index<1> i) __device(hpp) { p[i.getX()] = (ts + ... + 0); });
}

// A dependent member type is spelled as written: the class is declared.
// CHECK-LABEL: __global__ void hpp_pairSum_pfor0(
// CHECK: const typename Holder<T>::Pair q) {
// CHECK: hpp::launchKernel(hpp_pairSum_pfor0<T>, Range<1>(64), p, q);
template <typename T> void pairSum(Pointer<T> p, typename Holder<T>::Pair q) {
  parallelFor(Range<1>(64),
              [=](Index<1> i) __device(hpp) { p[i.getX()] = q.x + q.y; });
}

int main() {
  Pointer<int> p = allocate<int>(64);
  Pointer<float> f = allocate<float>(64);

  // CHECK: __global__ void hpp_main_pfor0(
  // CHECK-NEXT: const hpp::Pointer<int> p, const CPoint c) {
  CPoint c{2, 5};
  parallelFor(Range<1>(64),
              [=](Index<1> i) __device(hpp) { p[i.getX()] = c.x + c.y; });
  std::printf("extern-C %d\n", int(p[5]));

  // CHECK: template <typename HppCapture0>
  // CHECK-NEXT: __global__ void hpp_main_pfor1(
  Outer::Inner in{3, 2.f};
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = in.a + int(in.b);
  });
  std::printf("nested %d\n", int(p[5]));

  // CHECK: __global__ void hpp_main_pfor2(hpp::Range<1> hpp_range, const float s,
  // CHECK-NEXT: const int k, const hpp::Pointer<float> f) {
  // CHECK:        using Real = float;
  // CHECK-NEXT:   using Int = int;
  using Real = float;
  typedef int Int;
  Real s = 1.5f;
  Int k = 2;
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    Real t = s * k;
    f[i.getX()] = t;
  });
  std::printf("alias %g\n", double(f[5]));

  // CHECK: __global__ void hpp_main_pfor3(
  // CHECK:        using m::twice;
  // CHECK-NEXT:   using namespace m;
  // CHECK-NEXT:   namespace mm = m;
  using m::twice;
  using namespace m;
  namespace mm = m;
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = twice(3) + thrice(1) + mm::twice(1);
  });
  std::printf("using %d\n", int(p[5]));

  // CHECK: hpp::launchKernel(hpp_main_pfor1<std::decay_t<decltype(in)>>, Range<1>(64), p, in);
  sumPack(p, 1, 2, 3);
  std::printf("pack %d\n", int(p[5]));
  pairSum(p, Holder<int>::Pair{4, 5});
  std::printf("member-of-template %d\n", int(p[5]));
  // OUT: extern-C 7
  // OUT-NEXT: nested 5
  // OUT-NEXT: alias 3
  // OUT-NEXT: using 11
  // OUT-NEXT: pack 6
  // OUT-NEXT: member-of-template 9
}
