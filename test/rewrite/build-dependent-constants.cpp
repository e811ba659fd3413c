// A constant the body reads without capturing it is declared in the
// kernel, and the kernel must hold the value the host holds in every build
// of the output, not the one the tool saw: the build may define other
// macros (-DHPPN=5, -DNDEBUG) than the rewrite did. A constant whose value
// the source text alone fixes keeps its value (N); one that comes through
// the preprocessor is passed from the host when the body reads it as a
// value (Mode, chosen by #ifdef NDEBUG; Rows, a static member from a
// macro; Bytes, the size of a struct with an #ifdef'd member), and
// repeated as written where the body needs a constant expression (K, and
// Twice, which reads K). Rewritten without flags, the output gives the
// reference's results when both are built with other flags.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I%hpp_include %s -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.gen
// RUN: %t.ref > %t.ref.out
// RUN: %t.gen | diff %t.ref.out -
// RUN: FileCheck %s --check-prefix=DEFAULT < %t.ref.out
// RUN: %cxx -I%hpp_include -DHPPN=5 -DNDEBUG -DWIDE %s -o %t.ref5
// RUN: %cxx_runtime -DHPPN=5 -DNDEBUG -DWIDE %t.cpp -o %t.gen5
// RUN: %t.ref5 > %t.ref5.out
// RUN: %t.gen5 | diff %t.ref5.out -
// RUN: FileCheck %s --check-prefix=FLAGS < %t.ref5.out
// RUN: %gpu_check %t.cpp
// RUN: %gpu_check -DHPPN=5 -DNDEBUG -DWIDE %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

#ifndef HPPN
#define HPPN 3
#endif

struct Config {
  int A;
#ifdef WIDE
  double B;
#endif
};

struct Grid {
  static constexpr int Rows = HPPN + 1;
  void fill(Pointer<int> Out) {
    parallelFor(Range<1>(1), [=](Index<1> i) __device(hpp) { Out[4] = Rows; });
  }
};
// CHECK: __global__ void hpp_Grid_fill_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<int> Out,
// CHECK-NEXT: const int Rows);

// In a template the same: a constant read as a constant expression is
// repeated in the kernel, not passed (nvcc has no variable-length arrays).
template <typename T> void scaled(Pointer<T> Out) {
  constexpr int Len = HPPN + 1;
  parallelFor(Range<1>(1), [=](Index<1> i) __device(hpp) {
    T Buf[Len];
    Buf[Len - 1] = T(Len);
    Out[5] = Buf[Len - 1];
  });
}
// CHECK: template <typename T>
// CHECK-NEXT: __global__ void hpp_scaled_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<T> Out) {
// CHECK: constexpr int Len = HPPN + 1;

int main() {
  const int N = 16;
  const int K = HPPN * 2;
  constexpr int Twice = K * 2;
#ifdef NDEBUG
  const int Mode = 1;
#else
  const int Mode = 0;
#endif
  const int Bytes = int(sizeof(Config));
  Pointer<int> Out = allocate<int>(6);
  parallelFor(Range<1>(1), [=](Index<1> i) __device(hpp) {
    int Buf[K];
    int Big[Twice];
    Buf[K - 1] = K;
    Big[Twice - 1] = Twice;
    Out[0] = Buf[K - 1] * 100 + Mode;
    Out[1] = Big[Twice - 1];
    Out[2] = N;
    Out[3] = Bytes;
  });
  Grid().fill(Out);
  std::printf("host K=%d Mode=%d Bytes=%d Rows=%d\n", K, Mode, Bytes,
              Grid::Rows);
  std::printf("kernel K*100+Mode=%d Twice=%d N=%d Bytes=%d Rows=%d\n", Out[0],
              Out[1], Out[2], Out[3], Out[4]);
  // DEFAULT: host K=6 Mode=0 Bytes=4 Rows=4
  // DEFAULT-NEXT: kernel K*100+Mode=600 Twice=12 N=16 Bytes=4 Rows=4
  // FLAGS: host K=10 Mode=1 Bytes=16 Rows=6
  // FLAGS-NEXT: kernel K*100+Mode=1001 Twice=20 N=16 Bytes=16 Rows=6
  scaled(Out);
  std::printf("template Len=%d\n", Out[5]);
  // DEFAULT-NEXT: template Len=4
  // FLAGS-NEXT: template Len=6
  deallocate(Out);
  return 0;
}
// CHECK: __global__ void hpp_main_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<int> Out, const int Mode,
// CHECK-NEXT: const int Bytes) {
// CHECK: constexpr int K = HPPN * 2;
// CHECK-NEXT: constexpr int Twice = K * 2;
// CHECK-NEXT: constexpr int N = 16;
