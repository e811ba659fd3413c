// A parallelFor whose body reaches __gpu_sync, directly or through device
// functions, is launched cooperatively (hpp::detail::cooperative: every
// work-group resident, or a RuntimeError); one that does not is launched
// as usual. The output runs on the runtime's CPU backend at widths 32 and
// 64 with the dialect's results, and compiles for sm_90, gfx90a and
// gfx1030.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I%hpp_include %s -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.gen
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_THREADS=2 %t.gen > %t.gen32
// RUN: env HPP_CPU_MVECTOR=64 %t.gen > %t.gen64
// RUN: diff %t.ref32 %t.gen32
// RUN: diff %t.ref32 %t.gen64
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.gen64
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

/// Shifts \p A left by one across the launch, reading before and writing
/// after a launch-wide barrier.
__device(hpp) void shiftLeft(Pointer<int> A, std::size_t X, std::size_t N) {
  int Next = A[(X + 1) % N];
  __gpu_sync();
  A[X] = Next;
  __gpu_sync();
}

/// Two levels down: still a cooperative launch.
__device(hpp) void shiftTwice(Pointer<int> A, std::size_t X, std::size_t N) {
  shiftLeft(A, X, N);
  shiftLeft(A, X, N);
}

static long long checksum(Pointer<int> A, std::size_t N) {
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I)
    Sum += A[I] * static_cast<long long>(I % 5 + 1);
  return Sum;
}

int main() {
  const std::size_t N = 1000;
  Pointer<int> A = allocate<int>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<int>(I);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(128)),
              [=](Index<1, 1> i) __device(hpp) {
                int Next = A[(i.getX() + 3) % N];
                __gpu_sync();
                A[i.getX()] = Next;
              });
  // CHECK: __global__ void hpp_main_pfor{{[0-9]}}(
  // CHECK: __gpu_sync();
  // CHECK: hpp::launchKernel(hpp::detail::cooperative(hpp_main_pfor{{[0-9]}}), Range<1, 1>(Range<1>(N), Range<1>(128)), A);
  std::printf("direct %lld\n", checksum(A, N));
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(64)),
              [=](Index<1, 1> i) __device(hpp) {
                shiftTwice(A, i.getX(), N);
              });
  // CHECK: hpp::launchKernel(hpp::detail::cooperative(hpp_main_pfor{{[0-9]}}), Range<1, 1>(Range<1>(N), Range<1>(64)), A);
  std::printf("through functions %lld\n", checksum(A, N));
  parallelFor(Range<1>(N), [=](Index<1> i) __device(hpp) {
    A[i.getX()] += 1;
  });
  // CHECK: hpp::launchKernel(hpp_main_pfor{{[0-9]}}, Range<1>(N), A);
  std::printf("plain %lld\n", checksum(A, N));
  deallocate(A);
  return 0;
}
// OUT: direct 1497500
// OUT-NEXT: through functions 1500500
// OUT-NEXT: plain 1503500
