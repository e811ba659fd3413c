// Bodies written the many ways real code declares what they use, each
// accepted and rewritten into an output that computes the reference's
// results at 32 and 64 lanes and compiles for sm_90, gfx90a and gfx1030:
// a type declared in an `extern "C++"` block, and launches in linkage
// blocks (`extern "C"` too); captures typed through a
// dependent member alias and a decltype in a function template (the kernel
// spells the alias's type with the template's parameter names, and gets
// the decltype's type from the launch); a parallelFor inside a generic
// lambda called with two types (a kernel template over the lambda's
// `auto`s); a body whose BoundDistArray parameter is `auto`; a helper that
// a macro defines, called from a body (its qualifiers go before the macro's
// invocation).
// RUN: %hpp_rewrite %s -o %t.cpp 2> %t.err
// RUN: not grep -E 'warning|error' %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I%hpp_include %s -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.gen
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=64 %t.ref > %t.ref64
// RUN: env HPP_CPU_MVECTOR=32 %t.gen | diff %t.ref32 -
// RUN: env HPP_CPU_MVECTOR=64 %t.gen | diff %t.ref64 -
// RUN: FileCheck %s --check-prefix=OUT < %t.ref32
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

extern "C++" {
struct Pair2 {
  int A, B;
};
}

template <typename T> struct Traits {
  using value_type = T;
};

#define DEFINE_SCALER(name, f)                                                 \
  inline int name(int x) { return x * (f); }
DEFINE_SCALER(triple, 3)
// CHECK: __host__ __device__ DEFINE_SCALER(triple, 3)

template <typename T> void fill(Pointer<T> P, T V, int N) {
  using Value = typename Traits<T>::value_type;
  Value W = V + Value(1);
  decltype(V) Z = V * 2;
  parallelFor(Range<1>(N), [=](Index<1> i) __device(hpp) { P[i.getX()] = W + Z; });
}
// CHECK: template <typename HppCapture0, typename T>
// CHECK-NEXT: __global__ void hpp_fill_pfor0(hpp::Range<1> hpp_range, const hpp::Pointer<T> P,
// CHECK-NEXT: const typename Traits<T>::value_type W,
// CHECK-NEXT: const HppCapture0 Z) {

// In a linkage block the kernel goes in the block, before the function
// (or class) that launches it, where what the block declares is visible;
// in an `extern "C"` block it keeps C++ linkage.
extern "C" {
struct CPt {
  int X, Y;
};
struct CHolder {
  static void go(Pointer<int> P, int N) {
    CPt Q{2, 5};
    parallelFor(Range<1>(N), [=](Index<1> i) __device(hpp) { P[i.getX()] = Q.X * int(i.getX()) + Q.Y; });
  }
};
}
// CHECK: struct CPt {
// CHECK: extern "C++" {
// CHECK-NEXT: /// Outlined by hpp-rewrite from the parallelFor at declaration-forms.cpp:[[@LINE-6]]:5; defined after 'CHolder'.
// CHECK: struct CHolder {
// CHECK: {{^}}};
// CHECK-EMPTY:
// CHECK-NEXT: extern "C++" {
// CHECK-NEXT: /// Outlined by hpp-rewrite from the parallelFor at declaration-forms.cpp:[[@LINE-11]]:5.

extern "C++" {
template <typename T> void scaleAll(Pointer<T> P, int N) {
  Pair2 Q{2, 3};
  parallelFor(Range<1>(N), [=](Index<1> i) __device(hpp) { P[i.getX()] = P[i.getX()] * Q.A + Q.B; });
}
}
// CHECK: extern "C++" {
// CHECK-NEXT: /// Outlined by hpp-rewrite from the parallelFor at declaration-forms.cpp:[[@LINE-4]]:3.
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: __global__ void hpp_scaleAll_pfor0(

int main() {
  Pair2 Q{3, 4};
  Pointer<int> P = allocate<int>(4);
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    P[i.getX()] = Q.A * Q.B + triple(int(i.getX()));
  });
  std::printf("extern-c++ %d %d\n", P[0], P[3]);
  // OUT: extern-c++ 12 21

  Pointer<float> F = allocate<float>(4);
  fill(P, 3, 4);
  fill(F, 1.5f, 4);
  std::printf("alias %d %.2f\n", P[0], F[3]);
  // OUT-NEXT: alias 10 5.50

  auto Run = [](auto Out, auto V, int N) {
    parallelFor(Range<1>(N), [=](Index<1> i) __device(hpp) { Out[i.getX()] = V; });
  };
  Pointer<double> D = allocate<double>(4);
  Run(P, 7, 4);
  Run(D, 2.5, 4);
  std::printf("generic %d %.1f\n", P[1], D[2]);
  // OUT-NEXT: generic 7 2.5

  const int N = 64, G = 16;
  Pointer<int> Sums = allocate<int>(N / G);
  DistArray<int> Shared;
  Region<int> R = Shared.allocRegion(G);
  parallelFor(Range<1, 1>(N, G), Shared, [=](Index<1, 1> i, auto A) __device(hpp) {
    Segment<int> S = A(R);
    S[i.getLocalX()] = int(i.getX());
    S.barrier();
    if (i.getLocalX() == 0) {
      int T = 0;
      for (int K = 0; K < G; ++K)
        T += S[K];
      Sums[i.getGroupX()] = T;
    }
  });
  std::printf("auto-bound %d %d\n", Sums[0], Sums[3]);
  // OUT-NEXT: auto-bound 120 888
  CHolder::go(P, 4);
  scaleAll(P, 4);
  std::printf("linkage %d %d\n", P[0], P[3]);
  // OUT-NEXT: linkage 13 25
  // CHECK: __global__ void hpp_main_pfor2(hpp::Range<1, 1> hpp_range,
  // CHECK-NEXT: hpp::BoundDistArray<int> A,
  return 0;
}
