// A consumer that captures its own channel by reference writes into it as
// any producer does: its kernel takes an hpp::detail::ChannelWriter<T> for
// that capture, and its consumerKernel passes
// hpp::detail::channelWriter(c, BOUND). The values it writes are handed out
// in later batches of the same channel (runtime/hpp/channel.h). The
// capacity leaves room for every value, so that the reference never finds
// its channel full; the reference and the rewritten program print the same
// at widths 32 and 64.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp 2>%t.err | diff %t.cpp -
// RUN: count 0 < %t.err
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
// OUT: renew: 24 batches, 384 values, total 73536
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

/// n ids in batches of K; the consumer counts each value, and sends the
/// ids below n / 2 back into the channel once, as n + id.
void renew(std::size_t n) {
  constexpr std::size_t K = 16;
  const int N = int(n), Renew = int(n / 2);
  Pointer<int> stats = allocate<int>(3);
  stats[0] = stats[1] = stats[2] = 0;
  Channel<int> c(2 * n);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= K; },
      Range<1>(K), [=, &c](Index<1> i, Span<int> data) __device(hpp) {
        int v = data[i.getX()];
        atomicAdd(&stats[1], 1);
        atomicAdd(&stats[2], v);
        if (v < Renew)
          c.write(N + v);
        if (i.getX() == 0)
          atomicAdd(&stats[0], 1);
      });
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    c.write(int(i.getX()));
  });
  std::printf("renew: %d batches, %d values, total %d\n", stats[0], stats[1],
              stats[2]);
  deallocate(stats);
}
// CHECK: /// Outlined by hpp-rewrite from the Channel consumer at channel-self.cpp:[[@LINE-18]]:3.
// CHECK-NEXT: __global__ void hpp_renew_consumer0(hpp::Range<1> hpp_range,
// CHECK-NEXT:                                     hpp::detail::ChannelBatch<int> hpp_batch,
// CHECK-NEXT:                                     hpp::detail::ChannelWriter<int> c,
// CHECK-NEXT:                                     const hpp::Pointer<int> stats,
// CHECK-NEXT:                                     const int Renew, const int N) {
// CHECK-NEXT:   if (!hpp_batch.ready())
// CHECK-NEXT:     return;
// CHECK:        hpp::Span<int> data = hpp_batch.span();
// CHECK:            c.write(N + v);
// CHECK:      Range<1>(K), hpp::detail::consumerKernel(hpp_renew_consumer0, hpp::detail::channelWriter(c, 1), stats, Renew, N));
// CHECK-NEXT: hpp::launchKernel(hpp_renew_pfor0, Range<1>(n), hpp::detail::channelWriter(c, 1));

int main() {
  renew(256);
  return 0;
}
