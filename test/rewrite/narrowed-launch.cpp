// A kernel that keeps 32-lane warps (a literal 32 in its lane arithmetic)
// and also reads MVECTOR_SIZE: the width model narrows MVECTOR_SIZE in the
// body to the logical warp (32). Its launch, `Range<1,1>(n, MVECTOR_SIZE)`,
// must agree: the range's width becomes `hpp::warp32::size` too, or on a
// 64-lane device the work-groups had 64 work-items while the body read 32.
// So does an init-capture of the width (host code evaluated at the launch).
// The reference gives the same output at 32 and 64, and so must the
// rewritten program at both.
// RUN: %hpp_rewrite %s -o %t.cpp 2>%t.err
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
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
// OUT: groups as wide as the body's width: 256 of 256
// OUT-NEXT: leaders wrong: 0
// OUT-NEXT: captured width matches: 256 of 256
// OUT-NOT: {{.}}
// REMARK-NOT: warning:
// REMARK-NOT: error:

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

/// Flags[x] = 1 when x's work-group is as wide as the body's MVECTOR_SIZE;
/// Leader[x] = 0 when the shuffle reads lane 0 of x's 32-lane warp.
void flags(Pointer<int> Flags, Pointer<int> Leader, std::size_t n) {
  parallelFor(Range<1, 1>(n, MVECTOR_SIZE), [=](Index<1, 1> i) __device(hpp) {
    int x = int(i.getX());
    Flags[x] = int(i.getLocalSizeX()) == MVECTOR_SIZE;
    Leader[x] = __shfl_sync(0xffffffffu, x, 0) - (x - x % 32);
  });
}
// REMARK: narrowed-launch.cpp:[[@LINE-6]]:30: remark: the launched kernel keeps 32-lane warps, so the width in its launch is the logical warp's (32) on every target [hpp-host-warp-size]
// REMARK: narrowed-launch.cpp:[[@LINE-4]]:59: note: the kernel assumes 32-lane warps here: the literal '32'
// CHECK: hpp::launchKernel(hpp_flags_pfor0, Range<1, 1>(n, hpp::warp32::size), Flags, Leader);

/// Same[x] = 1 when the width captured at the launch is the body's.
void captured(Pointer<int> Same, std::size_t n) {
  parallelFor(Range<1, 1>(n, MVECTOR_SIZE),
              [=, w = MVECTOR_SIZE](Index<1, 1> i) __device(hpp) {
                int x = int(i.getX());
                Same[x] = w == MVECTOR_SIZE && x % 32 < 32;
              });
}
// REMARK: narrowed-launch.cpp:[[@LINE-6]]:30: remark: the launched kernel keeps 32-lane warps
// REMARK: narrowed-launch.cpp:[[@LINE-6]]:23: remark: the launched kernel keeps 32-lane warps
// CHECK: hpp::launchKernel(hpp_captured_pfor0, Range<1, 1>(n, hpp::warp32::size), hpp::warp32::size, Same);

int main() {
  const std::size_t n = 256;
  Pointer<int> F = allocate<int>(n), L = allocate<int>(n);
  flags(F, L, n);
  int Wide = 0, Wrong = 0;
  for (std::size_t k = 0; k < n; ++k) {
    Wide += F[k];
    Wrong += L[k] != 0;
  }
  std::printf("groups as wide as the body's width: %d of %zu\n", Wide, n);
  std::printf("leaders wrong: %d\n", Wrong);
  captured(F, n);
  int Same = 0;
  for (std::size_t k = 0; k < n; ++k)
    Same += F[k];
  std::printf("captured width matches: %d of %zu\n", Same, n);
  deallocate(F);
  deallocate(L);
  return 0;
}
