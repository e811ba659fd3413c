// A Task that writes a Channel (spec 1.8, issue 12): its lambda's
// by-reference capture of the channel is lowered as a parallelFor's, a
// `hpp::detail::ChannelWriter<T>` parameter of the task kernel, and the
// Task is made from hpp::detail::taskKernel(kernel,
// hpp::detail::channelWriter(c, BOUND), captures...), BOUND the most
// writes of one work-item (2 here: a write in each branch of an if adds
// the larger, a write after it one more). The consumers the task's writes
// trigger belong to the task: its get(), and a task enqueued after its
// future, come after them. The reference and the rewritten program print
// the same at widths 32 and 64.
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
// OUT: writer: 512 results, sum 130816
// OUT-NEXT: consumed: 32 batches, total 196864, values 1024
// OUT-NEXT: after: total 196864 seen by the dependent task
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

int main() {
  const std::size_t n = 512;
  Pointer<int> in = allocate<int>(n);
  for (std::size_t k = 0; k < n; ++k)
    in[k] = int(k);
  Pointer<int> total = allocate<int>(1), batches = allocate<int>(1),
               values = allocate<int>(1);
  total[0] = batches[0] = values[0] = 0;
  Channel<int> c(64);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 32; },
      Range<1>(32), [=](Index<1> i, std::vector<int> data) __device(hpp) {
        atomicAdd(total, data[i.getX()]);
        atomicAdd(values, 1);
        if (i.getX() == 0)
          atomicAdd(batches, 1);
      });
  // Each work-item writes its value (doubled when it is odd), then 1.
  Task<int, Index<1>> writer([=, &c](Index<1> i) __device(hpp) -> int {
    int v = in[i];
    if (v % 2 == 0)
      c.write(v);
    else
      c.write(2 * v);
    c.write(1);
    return v;
  });
  Future<std::vector<int>> f = writer.enqueue(Range<1>(n));
  // Enqueued after f: it runs after the consumers of f's writes.
  Task<int, Index<1>> reader([=](Index<1> i) __device(hpp) -> int {
    return total[0];
  });
  Future<std::vector<int>> g = reader.enqueue(Range<1>(1), f);
  std::vector<int> seen = g.get();
  std::vector<int> v = f.get();
  long long S = 0;
  for (int x : v)
    S += x;
  std::printf("writer: %zu results, sum %lld\n", v.size(), S);
  std::printf("consumed: %d batches, total %d, values %d\n", batches[0],
              total[0], values[0]);
  std::printf("after: total %d seen by the dependent task\n", seen[0]);
  deallocate(in);
  deallocate(total);
  deallocate(batches);
  deallocate(values);
  return 0;
}
// CHECK: /// Outlined by hpp-rewrite from the Channel consumer at channel-task.cpp:{{[0-9]+}}:3.
// CHECK-NEXT: __global__ void hpp_main_consumer0(hpp::Range<1> hpp_range,
// CHECK: /// Outlined by hpp-rewrite from the Task at channel-task.cpp:{{[0-9]+}}:{{[0-9]+}}.
// CHECK-NEXT: __global__ void hpp_main_task0(hpp::Range<1, 1> hpp_range,
// CHECK-NEXT:                                hpp::detail::TaskResult<int> hpp_result,
// CHECK-NEXT:                                hpp::detail::ChannelWriter<int> c,
// CHECK-NEXT:                                const hpp::Pointer<int> in) {
// CHECK-NEXT:   if (!hpp_result.runs())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Index<1> i(hpp::detail::kernelIndex(hpp_range).fields());
// CHECK-NEXT:   if (!i.inGlobalRange())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp_result.store(i, [&]() -> int {
// CHECK-NEXT:     int v = in[i];
// CHECK-NEXT:     if (v % 2 == 0)
// CHECK-NEXT:       c.write(v);
// CHECK-NEXT:     else
// CHECK-NEXT:       c.write(2 * v);
// CHECK-NEXT:     c.write(1);
// CHECK-NEXT:     return v;
// CHECK-NEXT:   }());
// CHECK-NEXT: }
// CHECK: Task<int, Index<1>> writer(hpp::detail::taskKernel(hpp_main_task0, hpp::detail::channelWriter(c, 2), in));
// CHECK-NEXT: Future<std::vector<int>> f = writer.enqueue(Range<1>(n));
// CHECK: Task<int, Index<1>> reader(hpp::detail::taskKernel(hpp_main_task1, total));
// CHECK-NEXT: Future<std::vector<int>> g = reader.enqueue(Range<1>(1), f);
