// Spec 1.8's channels, as the device runtime's contract wants them: each
// consumer of `c.executeWith(pred, range, lambda)` becomes a kernel
// `hpp_<f>_consumer<k>(hpp::Range<..> hpp_range,
// hpp::detail::ChannelBatch<T> hpp_batch, captures...)` that returns at
// once when its batch is not complete and binds the lambda's
// `std::vector<T> data` as `hpp::Span<T> data = hpp_batch.span();`, and
// the lambda becomes hpp::detail::consumerKernel(kernel, captures...); the
// coordinator stays as written. A kernel that captures a channel by
// reference takes an hpp::detail::ChannelWriter<T> and is launched with
// hpp::detail::channelWriter(c, BOUND), BOUND the most writes of one
// work-item. A consumer that writes into a second channel is a producer
// too. Kernels are numbered per function and emitted in source order; in a
// function template they are templates. The reference and the rewritten
// program print the same at widths 32 and 64, and the tool parses its own
// output without a word (the coordinator's `-> bool __device(coord)` too).
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
// OUT: sums: 8 batches, total 130816
// OUT-NEXT: pipeline: 16 batches of squares, total 44608256
// OUT-NEXT: template: total 261632
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

/// n values in batches of K, each consumed as a std::vector<int>: the
/// batches' sums add up to the total.
void sums(Pointer<int> in, std::size_t n) {
  constexpr std::size_t K = 64;
  Pointer<int> total = allocate<int>(1), batches = allocate<int>(1);
  total[0] = batches[0] = 0;
  Channel<int> c(256);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= K; },
      Range<1>(K), [=](Index<1> i, std::vector<int> data) __device(hpp) {
        if (i.getX() < data.size())
          atomicAdd(total, data[i.getX()]);
        if (i.getX() == 0)
          atomicAdd(batches, 1);
      });
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    c.write(in[i]);
  });
  std::printf("sums: %d batches, total %d\n", batches[0], total[0]);
  deallocate(total);
  deallocate(batches);
}
// CHECK: /// Outlined by hpp-rewrite from the Channel consumer at channel.cpp:[[@LINE-15]]:3.
// CHECK-NEXT: __global__ void hpp_sums_consumer0(hpp::Range<1> hpp_range,
// CHECK-NEXT:                                    hpp::detail::ChannelBatch<int> hpp_batch,
// CHECK-NEXT:                                    const hpp::Pointer<int> total,
// CHECK-NEXT:                                    const hpp::Pointer<int> batches) {
// CHECK-NEXT:   if (!hpp_batch.ready())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK-NEXT:   if (!i.inGlobalRange())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Span<int> data = hpp_batch.span();
// CHECK-NEXT:   {
// CHECK-NEXT:     if (i.getX() < data.size())
// CHECK-NEXT:       atomicAdd(total, data[i.getX()]);
// CHECK:      }
// CHECK-NEXT: }
// CHECK: /// Outlined by hpp-rewrite from the parallelFor at channel.cpp:[[@LINE-23]]:3.
// CHECK-NEXT: __global__ void hpp_sums_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT:                                hpp::detail::ChannelWriter<int> c,
// CHECK-NEXT:                                const hpp::Pointer<int> in) {
// CHECK-NEXT:   hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK-NEXT:   if (!i.inGlobalRange())
// CHECK-NEXT:     return;
// CHECK-NEXT:   {
// CHECK-NEXT:     c.write(in[i]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK: Channel<int> c(256);
// CHECK-NEXT: c.executeWith(
// CHECK-NEXT:     [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= K; },
// CHECK-NEXT:     Range<1>(K), hpp::detail::consumerKernel(hpp_sums_consumer0, total, batches));
// CHECK-NEXT: hpp::launchKernel(hpp_sums_pfor0, Range<1>(n), hpp::detail::channelWriter(c, 1), in);

/// Two channels in a row: the first one's consumer writes the squares of
/// its batch into the second, whose consumer adds them up.
void pipeline(Pointer<int> in, std::size_t n) {
  Pointer<int> total = allocate<int>(1), batches = allocate<int>(1);
  total[0] = batches[0] = 0;
  Channel<int> squares(128);
  squares.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 32; },
      Range<1>(32), [=](Index<1> i, std::vector<int> data) __device(hpp) {
        atomicAdd(total, data[i.getX()]);
        if (i.getX() == 0)
          atomicAdd(batches, 1);
      });
  Channel<int> c(64);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 16; },
      Range<1>(16), [=, &squares](Index<1> i, std::vector<int> data) __device(hpp) {
        int v = data[i.getX()];
        squares.write(v * v);
      });
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    c.write(in[i]);
  });
  std::printf("pipeline: %d batches of squares, total %d\n", batches[0],
              total[0]);
  deallocate(total);
  deallocate(batches);
}
// CHECK: __global__ void hpp_pipeline_consumer0(hpp::Range<1> hpp_range,
// CHECK: __global__ void hpp_pipeline_consumer1(hpp::Range<1> hpp_range,
// CHECK-NEXT:                                        hpp::detail::ChannelBatch<int> hpp_batch,
// CHECK-NEXT:                                        hpp::detail::ChannelWriter<int> squares) {
// CHECK-NEXT:   if (!hpp_batch.ready())
// CHECK: __global__ void hpp_pipeline_pfor0(hpp::Range<1> hpp_range,
// CHECK: Range<1>(16), hpp::detail::consumerKernel(hpp_pipeline_consumer1, hpp::detail::channelWriter(squares, 1)));
// CHECK-NEXT: hpp::launchKernel(hpp_pipeline_pfor0, Range<1>(n), hpp::detail::channelWriter(c, 1), in);

/// In a function template, a Channel<int>: the kernels are templates,
/// made with <T>.
template <typename T> T scaled(Pointer<int> in, std::size_t n, T k) {
  Pointer<T> total = allocate<T>(1);
  total[0] = 0;
  Channel<int> c(32);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 8; },
      Range<1>(8), [=](Index<1> i, std::vector<int> data) __device(hpp) {
        atomicAdd(total, T(data[i.getX()]) * k);
      });
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    c.write(in[i]);
  });
  T S = total[0];
  deallocate(total);
  return S;
}
// CHECK: template <typename T>
// CHECK-NEXT: __global__ void hpp_scaled_consumer0(hpp::Range<1> hpp_range,
// CHECK-NEXT:                                      hpp::detail::ChannelBatch<int> hpp_batch,
// CHECK-NEXT:                                      const hpp::Pointer<T> total, const T k) {
// CHECK: template <typename T>
// CHECK-NEXT: __global__ void hpp_scaled_pfor0(hpp::Range<1> hpp_range,
// CHECK: Range<1>(8), hpp::detail::consumerKernel(hpp_scaled_consumer0<T>, total, k));
// CHECK-NEXT: hpp::launchKernel(hpp_scaled_pfor0<T>, Range<1>(n), hpp::detail::channelWriter(c, 1), in);

int main() {
  const std::size_t n = 512;
  Pointer<int> in = allocate<int>(n);
  for (std::size_t k = 0; k < n; ++k)
    in[k] = int(k);
  sums(in, n);
  pipeline(in, n);
  std::printf("template: total %lld\n", scaled<long long>(in, n, 2));
  deallocate(in);
  return 0;
}
