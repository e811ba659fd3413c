// A Barrier the parallelFor body only waits on, every work-item reaching the
// same waits (their conditions uniform: captures, constants, locals computed
// from them): the kernel is outlined in three instantiations, binding the
// barrier as itself, as a hardware barrier of the whole work-group or as
// the grid barrier (WaitOnlyBarrier<Scope>), and the launch picks one by the
// barrier's count (work-group size, launch size, other). A barrier the body
// also skips, or passes to a function, or that a work-item may leave
// (return early) or wait on under a condition that depends on it, keeps the
// split barrier: a hardware barrier would not see the deadlock the
// reference runtime reports. Every kernel with a barrier declares a
// BarrierExitGuard after the binding. The output runs on the runtime's CPU
// backend at widths 32 and 64 with the dialect's results (which
// instantiation a launch picks: test/runtime/barrier.test), and compiles
// for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I%hpp_include %s -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.gen
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=32 %t.gen > %t.gen32
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_THREADS=3 %t.gen > %t.gen64
// RUN: diff %t.ref32 %t.gen32
// RUN: diff %t.ref32 %t.gen64
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.gen64
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

/// Rotates each work-group's slice of \p A by one, \p Steps times; only the
/// first \p Count work-items of a group take part.
static long long rotate(std::size_t N, std::size_t G, std::size_t Count,
                        int Steps) {
  Pointer<int> A = allocate<int>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<int>(I * 3 % 11);
  Barrier B(Count);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                std::size_t l = i.getLocalX(), base = i.getX() - l;
                if (l >= Count)
                  return;
                for (int s = 0; s < Steps; ++s) {
                  int next = A[base + (l + 1) % Count];
                  B.wait();
                  A[i.getX()] = next + s;
                  B.wait();
                }
              });
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I)
    Sum += A[I] * static_cast<long long>(I % 7 + 1);
  deallocate(A);
  return Sum;
}
// The work-items past Count return: the split barrier.
// CHECK: __global__ void hpp_rotate_pfor0(hpp::Range<1, 1> hpp_range, hpp::Barrier B,
// CHECK: __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_B;
// CHECK-NEXT: B.attach(hpp_barrier_B);
// CHECK-NEXT: hpp::detail::BarrierExitGuard hpp_barrier_exit;
// CHECK-NEXT: hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK: hpp::launchKernel(hpp_rotate_pfor0, Range<1, 1>(Range<1>(N), Range<1>(G)), B,

/// Rotates each work-group's slice by one, \p Steps times, every work-item
/// taking part, in a loop over a local computed from captures: uniform.
static long long rotateAll(std::size_t N, std::size_t G, int Steps) {
  Pointer<int> A = allocate<int>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<int>(I * 3 % 11);
  Barrier B(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                std::size_t l = i.getLocalX(), base = i.getX() - l;
                int left = Steps * 2;
                while (left > 0) {
                  left -= 2;
                  int next = A[base + (l + 1) % G];
                  if (Steps > 0)
                    B.wait();
                  A[i.getX()] = next + left;
                  B.wait();
                }
              });
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I)
    Sum += A[I] * static_cast<long long>(I % 7 + 1);
  deallocate(A);
  return Sum;
}
// CHECK: template <int HppBarrierScope>
// CHECK-NEXT: __global__ void hpp_rotateAll_pfor0(hpp::Range<1, 1> hpp_range,
// CHECK-NEXT: hpp::Barrier hpp_handle_B,
// CHECK: __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_B;
// CHECK-NEXT: hpp::detail::WaitOnlyBarrier<HppBarrierScope> B(hpp_handle_B, hpp_barrier_B);
// CHECK-NEXT: hpp::detail::BarrierExitGuard hpp_barrier_exit;
// CHECK-NEXT: hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK: hpp::launchKernel(hpp::detail::waitOnlyVariants(hpp_rotateAll_pfor0<0>, hpp_rotateAll_pfor0<1>, hpp_rotateAll_pfor0<2>, B), Range<1, 1>(Range<1>(N), Range<1>(G)), B,

/// The same, each wait under a condition on the work-item (always true
/// here): the split barrier.
static long long guarded(std::size_t N, std::size_t G, int Steps) {
  Pointer<int> A = allocate<int>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<int>(I * 5 % 13);
  Barrier B(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                std::size_t l = i.getLocalX(), base = i.getX() - l;
                for (int s = 0; s < Steps; ++s) {
                  int next = A[base + (l + 1) % G];
                  if (l < G)
                    B.wait();
                  A[i.getX()] = next + s;
                  if (l < G)
                    B.wait();
                }
              });
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I)
    Sum += A[I] * static_cast<long long>(I % 7 + 1);
  deallocate(A);
  return Sum;
}
// CHECK: __global__ void hpp_guarded_pfor0(hpp::Range<1, 1> hpp_range, hpp::Barrier B,
// CHECK: B.attach(hpp_barrier_B);
// CHECK-NEXT: hpp::detail::BarrierExitGuard hpp_barrier_exit;
// CHECK: hpp::launchKernel(hpp_guarded_pfor0, {{.*}}, B,

/// Rotates the whole array by one, \p Steps times, with one barrier of
/// every work-item of the launch (the grid barrier on GPUs).
static long long launchRotate(std::size_t N, std::size_t G, int Steps) {
  Pointer<int> A = allocate<int>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<int>(I * 5 % 17);
  Barrier B(N);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                for (int s = 0; s < Steps; ++s) {
                  int next = A[(i.getX() + 1) % N];
                  B.wait();
                  A[i.getX()] = next + s;
                  B.wait();
                }
              });
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I)
    Sum += A[I] * static_cast<long long>(I % 7 + 1);
  deallocate(A);
  return Sum;
}

// CHECK: hpp::launchKernel(hpp::detail::waitOnlyVariants(hpp_launchRotate_pfor0<0>, hpp_launchRotate_pfor0<1>, hpp_launchRotate_pfor0<2>, B), Range<1, 1>(Range<1>(N), Range<1>(G)), B,

/// One barrier only waited on, one skipped: only the first is a candidate.
template <class T> static T twoBarriers(std::size_t N, std::size_t G) {
  Pointer<T> A = allocate<T>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<T>(I % 5);
  Barrier Early(G), All(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &Early, &All](Index<1, 1> i) __device(hpp) {
                std::size_t l = i.getLocalX(), base = i.getX() - l;
                T mine = A[i.getX()], other = A[base + (l + 3) % G];
                if (l % 2)
                  Early.skip();
                else
                  Early.wait();
                All.wait();
                A[i.getX()] = mine + other;
              });
  T Sum = 0;
  for (std::size_t I = 0; I != N; ++I)
    Sum += A[I] * static_cast<T>(I % 3 + 1);
  deallocate(A);
  return Sum;
}
// CHECK: template <int HppBarrierScope, class T>
// CHECK-NEXT: __global__ void hpp_twoBarriers_pfor0(hpp::Range<1, 1> hpp_range,
// CHECK-NEXT: hpp::Barrier Early,
// CHECK-NEXT: hpp::Barrier hpp_handle_All,
// CHECK: __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_Early;
// CHECK-NEXT: Early.attach(hpp_barrier_Early);
// CHECK-NEXT: __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_All;
// CHECK-NEXT: hpp::detail::WaitOnlyBarrier<HppBarrierScope> All(hpp_handle_All, hpp_barrier_All);
// CHECK: hpp::launchKernel(hpp::detail::waitOnlyVariants(hpp_twoBarriers_pfor0<0, T>, hpp_twoBarriers_pfor0<1, T>, hpp_twoBarriers_pfor0<2, T>, All), {{.*}}, Early, All, A, G);

/// Waits on \p B; the analysis does not look into functions, so a barrier
/// passed to one keeps the split barrier.
__device(hpp) inline void waitOn(Barrier &B) { B.wait(); }

static long long passed(std::size_t N, std::size_t G) {
  Pointer<long long> A = allocate<long long>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<long long>(I);
  Barrier B(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                std::size_t l = i.getLocalX(), base = i.getX() - l;
                long long v = A[base + (G - 1 - l)];
                waitOn(B);
                A[i.getX()] = v;
              });
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I)
    Sum += A[I] * static_cast<long long>(I % 5 + 1);
  deallocate(A);
  return Sum;
}
// CHECK: __global__ void hpp_passed_pfor0(hpp::Range<1, 1> hpp_range, hpp::Barrier B,
// CHECK: B.attach(hpp_barrier_B);
// CHECK: hpp::launchKernel(hpp_passed_pfor0, {{.*}}, B, A, G);

int main() {
  std::printf("rotate whole %lld\n", rotate(1024, 256, 256, 5));
  std::printf("rotate half %lld\n", rotate(1024, 256, 128, 5));
  std::printf("rotate 96 %lld\n", rotate(960, 96, 96, 3));
  std::printf("rotate launch %lld\n", rotate(512, 512, 512, 3) +
                                        launchRotate(1000, 64, 4));
  std::printf("two int %d\n", twoBarriers<int>(512, 64));
  std::printf("two double %.1f\n", twoBarriers<double>(256, 128));
  std::printf("passed %lld\n", passed(512, 128));
  std::printf("rotate all %lld\n", rotateAll(1024, 256, 4));
  std::printf("guarded %lld\n", guarded(512, 64, 3));
  return 0;
}
// OUT: rotate whole {{[0-9]+}}
// OUT-NEXT: rotate half {{[0-9]+}}
// OUT-NEXT: rotate 96 {{[0-9]+}}
// OUT-NEXT: rotate launch {{[0-9]+}}
// OUT-NEXT: two int {{[0-9]+}}
// OUT-NEXT: two double {{[0-9.]+}}
// OUT-NEXT: passed {{[0-9]+}}
// OUT-NEXT: rotate all {{[0-9]+}}
// OUT-NEXT: guarded {{[0-9]+}}
