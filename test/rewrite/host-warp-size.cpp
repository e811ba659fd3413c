// MVECTOR_SIZE in host code is a run-time value on a GPU (HIP has no
// compile-time wavefront size on the host): a call statement that passes it
// as a template argument becomes the guard-plus-dispatch of spec 3.2 (CUDA
// builds instantiate only 32), and other host uses read the current
// device's width. The rewritten program runs on the runtime's CPU backend
// at both simulated widths and picks the matching instantiation; the CUDA
// object contains only the 32 instantiation.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | FileCheck %s --check-prefix=RUN32
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | FileCheck %s --check-prefix=RUN64
// RUN: %gpu_check --has-symbol 'fill<16>' --lacks-symbol 'fill<32>' %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

template <int Lanes> void fill(Pointer<int> out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    out[i.getX()] = Lanes;
  });
}

int host(Pointer<int> out, int n) {
  int width = MVECTOR_SIZE;
  fill<MVECTOR_SIZE / 2>(out, n);
  // The width is 32 or 64; 32 here is a number, not a width.
  return width + 32 - 32;
}
// CHECK-LABEL: int host(Pointer<int> out, int n) {
// CHECK-NEXT:   int width = hpp::getWarpSize(hpp::getDevice());
// CHECK-NEXT:   if constexpr (hpp::getMaxWarpSize() == 32)
// CHECK-NEXT:     fill<32 / 2>(out, n);
// CHECK-NEXT:   else if (hpp::getWarpSize(hpp::getDevice()) == 32)
// CHECK-NEXT:     fill<32 / 2>(out, n);
// CHECK-NEXT:   else
// CHECK-NEXT:     fill<64 / 2>(out, n);
// CHECK-NEXT:   // The width is 32 or 64; 32 here is a number, not a width.
// CHECK-NEXT:   return width + 32 - 32;
// CHECK-NOT: MVECTOR_SIZE

int main() {
  const int n = 100;
  Pointer<int> out = allocate<int>(n);
  int width = host(out, n);
  for (int k = 0; k < n; ++k)
    if (out[k] != width / 2)
      return 1;
  std::printf("width %d lanes %d\n", width, out[0]);
  deallocate(out);
  return 0;
}
// RUN32: width 32 lanes 16
// RUN64: width 64 lanes 32
