// The paper's `Range<1,1>(input.size(), MVECTOR_SIZE)` written in the
// parallelFor call itself: work-groups of one mvector. The range stays in
// place in the launch, so hpp-host-warp-size's edit of MVECTOR_SIZE in it
// composes with hpp-parallel-for's (they used to conflict: "internal error:
// conflicting edits"). An init-capture `[w = MVECTOR_SIZE]` is host code:
// it gets the host's run-time width, not the device's.
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
// OUT: mvector: n=1000 verified
// OUT-NEXT: captured width: 256 of 256
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

/// Out[k] = k's lane within its mvector-sized work-group, and its group.
void mvector(Pointer<std::size_t> Out, const std::vector<float> &input) {
  parallelFor(Range<1, 1>(input.size(), MVECTOR_SIZE),
              [=](Index<1> i) __device(hpp) {
                Out[2 * i] = i.getLocalX();
                Out[2 * i + 1] = i.getGroupX() * i.getLocalSizeX();
              });
}
// CHECK: hpp::launchKernel(hpp_mvector_pfor0, Range<1, 1>(input.size(), hpp::getWarpSize(hpp::getDevice())), Out);

/// Flags[k] = 1 when k's work-group is as wide as the width captured on
/// the host.
void captured(Pointer<int> Flags, std::size_t n) {
  parallelFor(Range<1, 1>(n, MVECTOR_SIZE), [=, w = MVECTOR_SIZE](Index<1, 1> i) __device(hpp) {
    Flags[i.getX()] = int(i.getLocalSizeX()) == w;
  });
}
// CHECK: hpp::launchKernel(hpp_captured_pfor0, Range<1, 1>(n, hpp::getWarpSize(hpp::getDevice())), hpp::getWarpSize(hpp::getDevice()), Flags);
// CHECK-NOT: MVECTOR_SIZE

int main() {
  std::vector<float> input(1000);
  Pointer<std::size_t> Out = allocate<std::size_t>(2 * input.size());
  mvector(Out, input);
  const std::size_t W = std::size_t(MVECTOR_SIZE);
  int Wrong = 0;
  for (std::size_t K = 0; K < input.size(); ++K)
    Wrong += Out[2 * K] != K % W || Out[2 * K + 1] != K / W * W;
  std::printf("mvector: n=%zu %s\n", input.size(),
              Wrong ? "FAILED" : "verified");
  deallocate(Out);
  Pointer<int> Flags = allocate<int>(256);
  captured(Flags, 256);
  int Set = 0;
  for (int K = 0; K < 256; ++K)
    Set += Flags[K];
  std::printf("captured width: %d of 256\n", Set);
  deallocate(Flags);
  Wrong += Set != 256;
  return Wrong ? 1 : 0;
}
