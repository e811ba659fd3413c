// The paper's channel reduction typed as printed: the consumer takes
// `(Index<1,1> index, BoundDistArray<T> a, std::vector<int> v)`, the
// BoundDistArray before the batch. Both runtimes accept either order, and
// the outliner recognizes the two parameters by type (Dialect/Channels.h,
// consumerParams): the kernel takes the batch, then the BoundDistArray,
// as for the spec's order, binds `v` to the batch's Span and `a` to the
// launch's DistArray. A Span<T> batch in the paper's order too. The
// reference and the rewritten program print the same at widths 32 and 64.
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
// OUT: paper order: 16 batches, total 523776
// OUT-NEXT: paper order, span: 8 batches, max 1023
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

/// n values in batches of 64, each summed by one work-group of 64 in its
/// region of a DistArray; the consumer as the paper prints it.
void reduce(Pointer<int> in, std::size_t n) {
  constexpr std::size_t K = 64;
  Pointer<int> total = allocate<int>(1), batches = allocate<int>(1);
  total[0] = batches[0] = 0;
  DistArray<int> darray;
  Region<int> sums = darray.allocRegion(K);
  Channel<int> c(2 * K);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= K; },
      Range<1, 1>(K, K), darray,
      [=](Index<1, 1> index, BoundDistArray<int> a, std::vector<int> v)
          __device(hpp) {
        Segment<int> s = a(sums);
        std::size_t l = index.getLocalX();
        s[l] = l < v.size() ? v[l] : 0;
        s.barrier();
        for (std::size_t half = K / 2; half > 0; half /= 2) {
          if (l < half)
            s[l] += s[l + half];
          s.barrier();
        }
        if (l == 0) {
          atomicAdd(total, s[0]);
          atomicAdd(batches, 1);
        }
      });
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    c.write(in[i]);
  });
  std::printf("paper order: %d batches, total %d\n", batches[0], total[0]);
  deallocate(total);
  deallocate(batches);
}
// CHECK: /// Outlined by hpp-rewrite from the Channel consumer at channel-darray-paper-order.cpp:[[@LINE-26]]:3.
// CHECK-NEXT: __global__ void hpp_reduce_consumer0(hpp::Range<1, 1> hpp_range,
// CHECK-NEXT:                                      hpp::detail::ChannelBatch<int> hpp_batch,
// CHECK-NEXT:                                      hpp::BoundDistArray<int> a,
// CHECK-NEXT:                                      const hpp::Region<int> sums,
// CHECK-NEXT:                                      const hpp::Pointer<int> total,
// CHECK-NEXT:                                      const hpp::Pointer<int> batches) {
// CHECK-NEXT:   if (!hpp_batch.ready())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Index<1, 1> index = hpp::detail::kernelIndex(hpp_range);
// CHECK-NEXT:   if (!index.inGlobalRange())
// CHECK-NEXT:     return;
// CHECK-NEXT:   constexpr std::size_t K = 64;
// CHECK-NEXT:   hpp::Span<int> v = hpp_batch.span();
// CHECK-NEXT:   {
// CHECK-NEXT:     Segment<int> s = a(sums);
// CHECK: c.executeWith(
// CHECK-NEXT:     [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= K; },
// CHECK-NEXT:     Range<1, 1>(K, K), darray,
// CHECK-NEXT:     hpp::detail::consumerKernel(hpp_reduce_consumer0, sums, total, batches));

/// The maximum of each batch of 128, with a Span batch after the
/// BoundDistArray.
void maxima(Pointer<int> in, std::size_t n) {
  constexpr std::size_t K = 128;
  Pointer<int> best = allocate<int>(1), batches = allocate<int>(1);
  best[0] = batches[0] = 0;
  DistArray<int> darray;
  Region<int> m = darray.allocRegion(K);
  Channel<int> c(K);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= K; },
      Range<1, 1>(K, K), darray,
      [=](Index<1, 1> index, BoundDistArray<int> a, Span<int> v)
          __device(hpp) {
        Segment<int> s = a(m);
        std::size_t l = index.getLocalX();
        s[l] = v[l];
        s.barrier();
        for (std::size_t half = K / 2; half > 0; half /= 2) {
          if (l < half && s[l + half] > s[l])
            s[l] = s[l + half];
          s.barrier();
        }
        if (l == 0) {
          atomicMax(best, s[0]);
          atomicAdd(batches, 1);
        }
      });
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    c.write(in[i]);
  });
  std::printf("paper order, span: %d batches, max %d\n", batches[0], best[0]);
  deallocate(best);
  deallocate(batches);
}
// CHECK: hpp::detail::ChannelBatch<int> hpp_batch,
// CHECK-NEXT: hpp::BoundDistArray<int> a,
// CHECK: hpp::Span<int> v = hpp_batch.span();

int main() {
  const std::size_t n = 1024;
  Pointer<int> in = allocate<int>(n);
  for (std::size_t k = 0; k < n; ++k)
    in[k] = int(k);
  reduce(in, n);
  maxima(in, n);
  deallocate(in);
  return 0;
}
