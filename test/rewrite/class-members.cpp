// A parallelFor in a member function: the body keeps the names it had in
// the class. The kernel is declared before the class and defined after it;
// class members the body names unqualified are qualified there (a class
// template's with `typename`), constant static members are copied by value
// (private ones too), and captures of the class's public member types are
// template parameters of the kernel set at the launch.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;

namespace ns {
// CHECK: namespace ns {
// CHECK-NEXT: /// Outlined by hpp-rewrite from the parallelFor at class-members.cpp:[[#@LINE+24]]:5; defined after 'K'.
// CHECK-NEXT: template <typename HppCapture0>
// CHECK-NEXT: __global__ void hpp_K_run_pfor0(hpp::Range<1> hpp_range, const HppCapture0 v,
// CHECK-NEXT:                                 const hpp::Pointer<int> p);
// CHECK-EMPTY:
// CHECK-NEXT: class K {
class K {
  static constexpr int Scale = 7;
  static constexpr float Half = 0.5f;

public:
  struct P {
    int a;
  };
  enum Mode { Add = 1, Mul = 2 };
  using Value = int;
  static int f(int x) __device(hpp) { return x * 3; }
  template <int N> static int g(int x) __device(hpp) { return x + N; }
  struct Deep {
    static int h(int x) __device(hpp) { return x - 1; }
  };
  void run(Pointer<int> p) {
    P v{3};
    // CHECK: hpp::launchKernel(hpp_K_run_pfor0<std::decay_t<decltype(v)>>, Range<1>(64), v, p);
    parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
      P w{v.a};
      Value t = w.a * Scale + f(1) + g<2>(0) + Deep::h(1) + int(Half * 2) +
                Add + K::Mul;
      p[i.getX()] = t;
    });
  }
};
// CHECK: };
// CHECK-EMPTY:
// CHECK-NEXT: /// Outlined by hpp-rewrite from the parallelFor at class-members.cpp:[[#@LINE-10]]:5.
// CHECK-NEXT: template <typename HppCapture0>
// CHECK-NEXT: __global__ void hpp_K_run_pfor0(hpp::Range<1> hpp_range, const HppCapture0 v,
// CHECK:        constexpr int Scale = 7;
// CHECK-NEXT:   constexpr float Half = 0x1p-1f;
// CHECK-NEXT:   {
// CHECK-NEXT:     ns::K::P w{v.a};
// CHECK-NEXT:     ns::K::Value t = w.a * Scale + ns::K::f(1) + ns::K::g<2>(0) + ns::K::Deep::h(1) + int(Half * 2) +
// CHECK-NEXT:               ns::K::Add + K::Mul;

template <typename T> struct Box {
  struct Pair {
    T x, y;
  };
  static T twice(T v) __device(hpp) { return v + v; }
  static constexpr int Three = 3;
  void run(Pointer<T> p) {
    Pair q{T(1), T(2)};
    // CHECK: hpp::launchKernel(hpp_Box_run_pfor0<std::decay_t<decltype(q)>, T>, Range<1>(64), q, p);
    parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
      Pair r{q.y, q.x};
      p[i.getX()] = twice(r.x + r.y) + Three;
    });
  }
};
// CHECK: template <typename HppCapture0, typename T>
// CHECK-NEXT: __global__ void hpp_Box_run_pfor0(
// CHECK:        constexpr int Three = 3;
// CHECK-NEXT:   {
// CHECK-NEXT:     typename ns::Box<T>::Pair r{q.y, q.x};
// CHECK-NEXT:     p[i.getX()] = ns::Box<T>::twice(r.x + r.y) + Three;
} // namespace ns

int main() {
  Pointer<int> p = allocate<int>(64);
  ns::K k;
  k.run(p);
  std::printf("K %d\n", int(p[5]));
  ns::Box<int> b;
  b.run(p);
  std::printf("Box %d\n", int(p[5]));
  // OUT: K 30
  // OUT-NEXT: Box 9
}
