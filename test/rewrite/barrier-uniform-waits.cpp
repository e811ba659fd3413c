// Which Barriers get the hardware-barrier fast path (WaitOnlyBarrier, three
// instantiations): those the body only waits on and that every work-item
// reaches the same number of times (lib/Analysis/UniformWaits.cpp). Uniform:
// loops and branches on constants, captures and locals computed only from
// them (a segment's size too), a break under such a condition, a
// work-item-dependent break in a loop that does not wait. Not: a
// work-item-dependent break out of a loop that waits, a loop bound read
// from memory, a local that a work-item-dependent branch changes, a
// segment chosen by the work-item, a wait in a nested lambda (a
// hardware barrier would not see a work-item that skips a wait the others
// make, where the reference runtime reports a deadlock). The output is not
// run (some bodies deadlock by design); it compiles for sm_90, gfx90a and
// gfx1030.
// RUN: %hpp_rewrite %s -o %t.cpp 2> %t.warnings
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

using namespace hpp;

/// A template body: a loop on a constant, a switch on a capture (uniform).
template <class T> void tmpl(std::size_t N, std::size_t G, Pointer<T> A) {
  Barrier B(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                for (int s = 0; s < 3; ++s) {
                  B.wait();
                }
                switch (G) {
                case 1:
                  break;
                default:
                  B.wait();
                }
                auto f = [&](int k) { return k + 1; };
                A[i.getX()] = T(f(1));
              });
}

/// One parallelFor per case, each with its own barrier.
void cases(std::size_t N, std::size_t G, Pointer<int> A) {
  Barrier B1(G), B2(G), B3(G), B4(G), B5(G), B6(G);
  // uniform: break under a uniform condition
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B1](Index<1, 1> i) __device(hpp) {
                for (int s = 0; s < 10; ++s) {
                  if (s == int(N))
                    break;
                  B1.wait();
                }
              });
  // not: break under an id condition in a loop that waits
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B2](Index<1, 1> i) __device(hpp) {
                for (int s = 0; s < 10; ++s) {
                  if (i.getLocalX() == 3)
                    break;
                  B2.wait();
                }
              });
  // uniform: divergent break in a loop that does not wait
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B3](Index<1, 1> i) __device(hpp) {
                int x = 0;
                for (int s = 0; s < 10; ++s) {
                  if (i.getLocalX() == 3)
                    break;
                  x += s;
                }
                B3.wait();
                A[i.getX()] = x;
              });
  // not: loop bound from a load
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B4](Index<1, 1> i) __device(hpp) {
                for (int s = 0; s < A[0]; ++s)
                  B4.wait();
              });
  // not: a local that an id-dependent branch changes
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B5](Index<1, 1> i) __device(hpp) {
                int n = 2;
                if (i.getLocalX() == 0)
                  n = 3;
                for (int s = 0; s < n; ++s)
                  B5.wait();
              });
  // not: wait in a nested lambda
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B6](Index<1, 1> i) __device(hpp) {
                auto w = [&]() { B6.wait(); };
                w();
              });
}
// CHECK: hpp::launchKernel(hpp::detail::waitOnlyVariants(hpp_tmpl_pfor0<0, T>, {{.*}}, B), {{.*}}, B, G, A);
// CHECK: hpp::launchKernel(hpp::detail::waitOnlyVariants(hpp_cases_pfor0<0>, {{.*}}, B1), {{.*}}, B1, N);
// CHECK: hpp::launchKernel(hpp_cases_pfor1, {{.*}}, B2);
// CHECK: hpp::launchKernel(hpp::detail::waitOnlyVariants(hpp_cases_pfor2<0>, {{.*}}, B3), {{.*}}, B3, A);
// CHECK: hpp::launchKernel(hpp_cases_pfor3, {{.*}}, B4, A);
// CHECK: hpp::launchKernel(hpp_cases_pfor4, {{.*}}, B5);
// CHECK: hpp::launchKernel(hpp_cases_pfor5, {{.*}}, B6);

/// The paper's tree reduction: a loop over a local computed from the
/// size of a segment of the bound DistArray: uniform. The same with the
/// segment chosen by the work-item: not.
void segments(std::size_t G, Pointer<int> A) {
  DistArray<int> d;
  Region<int> r1 = d.allocRegion(G), r2 = d.allocRegion(G);
  Barrier B7(G), B8(G);
  parallelFor(Range<1, 1>(G, G), d,
              [=, &B7](Index<1, 1> i, BoundDistArray<int> a) __device(hpp) {
                Segment<int> s = a(r1);
                std::size_t l = i.getLocalX(), g = s.getRegionSize();
                s[l] = A[l];
                B7.wait();
                for (std::size_t half = g / 2; half > 0; half /= 2) {
                  if (l < half)
                    s[l] += s[l + half];
                  B7.wait();
                }
              });
  parallelFor(Range<1, 1>(G, G), d,
              [=, &B8](Index<1, 1> i, BoundDistArray<int> a) __device(hpp) {
                Segment<int> s = i.getLocalX() % 2 ? a(r1) : a(r2);
                for (std::size_t k = s.getRegionSize(); k > 1; k /= 2)
                  B8.wait();
              });
}
// CHECK: hpp::launchKernel(hpp::detail::waitOnlyVariants(hpp_segments_pfor0<0>, {{.*}}, B7), {{.*}}, d, B7, r1, A);
// CHECK: hpp::launchKernel(hpp_segments_pfor1, {{.*}}, d, B8, r1, r2);

int main() {
  Pointer<int> A = allocate<int>(64);
  cases(64, 64, A);
  tmpl<int>(64, 64, A);
  segments(64, A);
}
