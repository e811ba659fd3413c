// A consumer that takes its batch as `Span<T>` (or `const std::vector<T>
// &`) over a Range<1,1> gets the same `hpp::Span<T> data =
// hpp_batch.span();`. The write bound of a producer is the most writes one
// work-item makes: both branches of an if or ?: count as one, so a body
// with an if/else, a ?: and an if is launched with channelWriter(c, 3);
// size() in a producer does not count. The reference and the rewritten
// program print the same at widths 32 and 64.
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
// OUT: span: 24 batches of 16, total 2464
// OUT-NEXT: view: 8 batches, maximum 255
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

/// Two writes per work-item (the third never happens), consumed 16 at a
/// time by one work-group of 16 taking a Span<float>.
void span(Pointer<float> in, std::size_t n) {
  Pointer<int> total = allocate<int>(1), batches = allocate<int>(1),
               wrong = allocate<int>(1);
  total[0] = batches[0] = wrong[0] = 0;
  Channel<float> c(64);
  c.executeWith(
      [=](Channel<float>* c) -> bool __device(coord) { return c->size() >= 16; },
      Range<1, 1>(16, 16), [=](Index<1, 1> i, Span<float> data) __device(hpp) {
        std::size_t l = i.getLocalX();
        if (l == 0) {
          atomicAdd(batches, 1);
          if (data.size() != 16 || data.empty())
            atomicAdd(wrong, 1);
        }
        atomicAdd(total, int(data[l]));
      });
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    if (i.getX() % 2 == 0)
      c.write(in[i]);
    else
      c.write(-in[i]);
    i.getX() % 3 == 0 ? c.write(20.0f) : c.write(10.0f);
    if (c.size() > 100000) // Never: the channel holds 64.
      c.write(0.0f);
  });
  std::printf("span: %d batches of 16, total %d%s\n", batches[0], total[0],
              wrong[0] ? " (wrong sizes)" : "");
  deallocate(total);
  deallocate(batches);
  deallocate(wrong);
}
// CHECK: __global__ void hpp_span_consumer0(hpp::Range<1, 1> hpp_range,
// CHECK-NEXT:                                    hpp::detail::ChannelBatch<float> hpp_batch,
// CHECK-NEXT:                                    const hpp::Pointer<int> batches,
// CHECK-NEXT:                                    const hpp::Pointer<int> wrong,
// CHECK-NEXT:                                    const hpp::Pointer<int> total) {
// CHECK-NEXT:   if (!hpp_batch.ready())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK-NEXT:   if (!i.inGlobalRange())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Span<float> data = hpp_batch.span();
// CHECK-NEXT:   {
// CHECK: __global__ void hpp_span_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT:                                hpp::detail::ChannelWriter<float> c,
// CHECK-NEXT:                                const hpp::Pointer<float> in) {
// CHECK: Range<1, 1>(16, 16), hpp::detail::consumerKernel(hpp_span_consumer0, batches, wrong, total));
// CHECK-NEXT: hpp::launchKernel(hpp_span_pfor0, Range<1>(n), hpp::detail::channelWriter(c, 3), in);

/// A batch read through a `const std::vector<int> &`: the maximum of each
/// batch of 32.
void view(std::size_t n) {
  Pointer<int> maximum = allocate<int>(1), batches = allocate<int>(1);
  maximum[0] = batches[0] = 0;
  Channel<int> c(64);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 32; },
      Range<1>(1), [=](Index<1> i, const std::vector<int> &data) __device(hpp) {
        int m = 0;
        for (int v : data)
          m = v > m ? v : m;
        atomicMax(maximum, m);
        atomicAdd(batches, 1);
      });
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    c.write(int(i.getX()));
  });
  std::printf("view: %d batches, maximum %d\n", batches[0], maximum[0]);
  deallocate(maximum);
  deallocate(batches);
}
// CHECK: __global__ void hpp_view_consumer0(hpp::Range<1> hpp_range,
// CHECK-NEXT:                                    hpp::detail::ChannelBatch<int> hpp_batch,
// CHECK-NEXT:                                    const hpp::Pointer<int> maximum,
// CHECK-NEXT:                                    const hpp::Pointer<int> batches) {
// CHECK: hpp::Span<int> data = hpp_batch.span();
// CHECK: hpp::launchKernel(hpp_view_pfor0, Range<1>(n), hpp::detail::channelWriter(c, 1));

int main() {
  const std::size_t n = 192;
  Pointer<float> in = allocate<float>(n);
  for (std::size_t k = 0; k < n; ++k)
    in[k] = float(k);
  span(in, n);
  view(256);
  deallocate(in);
  return 0;
}
