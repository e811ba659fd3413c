// `warpSize` in host code works as MVECTOR_SIZE does (spec 3.2): a call
// statement that passes it as a template argument becomes the 32/64
// dispatch, wherever the statement stands: in a block, after a `case` or a
// label, as the body of an unbraced `if`, `else` or loop (there the
// dispatch is wrapped in braces, so that it stays one statement). Other
// host uses read the current device's width. The reference runs with the
// width compiled in (-DHPP_CPU_MVECTOR, which makes warpSize a constant
// there); the rewritten program runs at both widths on the CPU backend,
// and the CUDA object holds only the 32 instantiations.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include -DHPP_CPU_MVECTOR=32 %s -o %t.ref32
// RUN: %cxx -I %hpp_include -DHPP_CPU_MVECTOR=64 %s -o %t.ref64
// RUN: %t.ref32 1 | FileCheck %s --check-prefix=RUN32
// RUN: %t.ref64 1 | FileCheck %s --check-prefix=RUN64
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe 1 | FileCheck %s --check-prefix=RUN32
// RUN: env HPP_CPU_MVECTOR=64 %t.exe 1 | FileCheck %s --check-prefix=RUN64
// RUN: %gpu_check --has-symbol 'scale<32>' --lacks-symbol 'scale<64>' %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

static int Total = 0;

template <int W> void scale(Pointer<int> out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    out[i.getX()] = W;
  });
  Total += W;
}

int host(Pointer<int> out, int n, int k) {
  scale<warpSize>(out, n);
  switch (k) {
  case 1:
    scale<warpSize / 2>(out, n);
    break;
  default:
    break;
  }
  if (k == 1)
    scale<warpSize>(out, n);
  else
    scale<warpSize / 2>(out, n);
  for (int r = 0; r < k; ++r) scale<warpSize>(out, n);
again:
  scale<warpSize / 2>(out, n);
  if (Total < 0)
    goto again;
  return warpSize;
}
// CHECK-LABEL: int host(Pointer<int> out, int n, int k) {
// CHECK-NEXT:   if constexpr (hpp::getMaxWarpSize() == 32)
// CHECK-NEXT:     scale<32>(out, n);
// CHECK-NEXT:   else if (hpp::getWarpSize(hpp::getDevice()) == 32)
// CHECK-NEXT:     scale<32>(out, n);
// CHECK-NEXT:   else
// CHECK-NEXT:     scale<64>(out, n);
// CHECK-NEXT:   switch (k) {
// CHECK-NEXT:   case 1:
// CHECK-NEXT:     {
// CHECK-NEXT:       if constexpr (hpp::getMaxWarpSize() == 32)
// CHECK-NEXT:         scale<32 / 2>(out, n);
// CHECK-NEXT:       else if (hpp::getWarpSize(hpp::getDevice()) == 32)
// CHECK-NEXT:         scale<32 / 2>(out, n);
// CHECK-NEXT:       else
// CHECK-NEXT:         scale<64 / 2>(out, n);
// CHECK-NEXT:     }
// CHECK-NEXT:     break;
// CHECK:        if (k == 1)
// CHECK-NEXT:     {
// CHECK-NEXT:       if constexpr (hpp::getMaxWarpSize() == 32)
// CHECK-NEXT:         scale<32>(out, n);
// CHECK:            }
// CHECK-NEXT:   else
// CHECK-NEXT:     {
// CHECK-NEXT:       if constexpr (hpp::getMaxWarpSize() == 32)
// CHECK-NEXT:         scale<32 / 2>(out, n);
// CHECK:        for (int r = 0; r < k; ++r) {
// CHECK-NEXT:     if constexpr (hpp::getMaxWarpSize() == 32)
// CHECK-NEXT:       scale<32>(out, n);
// CHECK:        }
// CHECK-NEXT: again:
// CHECK-NEXT:   {
// CHECK-NEXT:     if constexpr (hpp::getMaxWarpSize() == 32)
// CHECK:        return hpp::getWarpSize(hpp::getDevice());
// CHECK-NOT: warpSize

int main(int argc, char **) {
  const int n = 64;
  Pointer<int> out = allocate<int>(n);
  int width = host(out, n, argc);
  for (int k = 0; k < n; ++k)
    if (out[k] != width / 2)
      return 1;
  std::printf("width %d total %d\n", width, Total);
  deallocate(out);
  return 0;
}
// argc == 1: W + W/2 + W + W + W/2 = 4W
// RUN32: width 32 total 128
// RUN64: width 64 total 256
