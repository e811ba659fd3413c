// A lambda reads enclosing constants by value without capturing them (not
// an odr-use: `const std::size_t N = 1000;`); the outlined kernel declares
// each as a constexpr with its value, in order of first use (integers, enumerators, bool;
// floating point in hexadecimal, exact), so they stay usable in constant
// expressions. The output gives the dialect's result on the CPU backend
// and compiles for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I%hpp_include %s -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.gen
// RUN: %t.ref > %t.ref.out
// RUN: %t.gen > %t.gen.out
// RUN: diff %t.ref.out %t.gen.out
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

enum class Mode { A = 2, B = 5 };

int main() {
  const std::size_t N = 1000;
  const float Scale = 0.1f; // Not a constant expression: captured.
  constexpr double Third = 1.0 / 3;
  const bool Flag = true;
  constexpr Mode M = Mode::B;
  Pointer<float> A = allocate<float>(N);
  parallelFor(Range<1>(N), [=](Index<1> i) __device(hpp) {
    int Buf[N % 7]; // N as an array bound.
    Buf[0] = Flag ? 1 : 0;
    A[i.getX()] = float((i.getX() + 1) % N) * Scale + float(Third) + Buf[0] +
                  int(M);
  });
  // CHECK: __global__ void hpp_main_pfor0(hpp::Range<1> hpp_range,
  // CHECK-NEXT: const hpp::Pointer<float> A, const float Scale) {
  // CHECK: return;
  // CHECK-NEXT: constexpr std::size_t N = 1000;
  // CHECK-NEXT: constexpr bool Flag = true;
  // CHECK-NEXT: constexpr double Third = 0x1.5555555555555p-2;
  // CHECK-NEXT: constexpr Mode M = static_cast<Mode>(5);
  double Sum = 0;
  for (std::size_t I = 0; I != N; ++I)
    Sum += A[I];
  std::printf("%.6f\n", Sum);
  deallocate(A);
  return 0;
}
