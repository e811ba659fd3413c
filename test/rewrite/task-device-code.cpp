// A Task's body is device code for every rule, as a parallelFor body is:
// a warp reduction with a shuffle on the whole mvector (a 64-bit mask) and
// MVECTOR_SIZE for its width has no 32-lane fact, so the kernel runs on
// whole wavefronts: the shuffle becomes hpp::shflDownSync with the
// device's full mask and MVECTOR_SIZE the device's width. Every work-item
// returns whether the sum over its mvector is the width; the reference and
// the rewritten program print the same at widths 32 and 64.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=64 %t.ref > %t.ref64
// RUN: diff %t.ref32 %t.ref64
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.ref32
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe > %t.gen32
// RUN: env HPP_CPU_MVECTOR=64 %t.exe > %t.gen64
// RUN: diff %t.ref32 %t.gen32
// RUN: diff %t.ref32 %t.gen64
// RUN: %gpu_check %t.cpp
//
// OUT: mvector sums: 1024 of 1024 right
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

int main() {
  const std::size_t n = 1024;
  Pointer<int> ones = allocate<int>(n);
  for (std::size_t x = 0; x < n; ++x)
    ones[x] = 1;
  Task<int, Index<1, 1>> sums([=](Index<1, 1> i) __device(hpp) {
    int v = ones[i.getX()];
    for (int o = MVECTOR_SIZE / 2; o > 0; o /= 2)
      v += __shfl_down_sync(~0ull, v, o);
    return __shfl_sync(~0ull, v, 0) == MVECTOR_SIZE ? 1 : 0;
  });
  std::vector<int> Right = sums.enqueue(Range<1, 1>(n, 128)).get();
  int Count = 0;
  for (int R : Right)
    Count += R;
  std::printf("mvector sums: %d of %zu right\n", Count, Right.size());
  deallocate(ones);
  return Count == int(n) ? 0 : 1;
}
// CHECK: __global__ void hpp_main_task0(hpp::Range<1, 1> hpp_range,
// CHECK: hpp_result.store(i, [&]() -> int {
// CHECK-NEXT:     int v = ones[i.getX()];
// CHECK-NEXT:     for (int o = hpp::getWarpSize() / 2; o > 0; o /= 2)
// CHECK-NEXT:       v += hpp::shflDownSync(hpp::getWarpFullMask(), v, o);
// CHECK-NEXT:     return hpp::shflSync(hpp::getWarpFullMask(), v, 0) == hpp::getWarpSize() ? 1 : 0;
// CHECK-NEXT:   }());
// CHECK: Task<int, Index<1, 1>> sums(hpp::detail::taskKernel(hpp_main_task0, ones));
