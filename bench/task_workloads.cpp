//===- bench/task_workloads.cpp - Dialect side of the task benchmark -------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The task workloads bench/task_bench.cu times, written in the dialect:
/// hpp-rewrite turns this file into the source that benchmark #includes
/// (HPP_GENERATED). Runs on the CPU too (main below checks the results).
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

/// \p K tiny tasks (one work-group of 32), each enqueued after the one
/// before; returns when the last one has completed. Flag[0] counts them.
void taskChain(Pointer<int> Flag, int K) {
  Task<void, Index<1, 1>> t([=](Index<1, 1> i) __device(hpp) {
    if (i.getX() == 0)
      Flag[0] += 1;
  });
  Future<void> f = t.enqueue(Range<1, 1>(32, 32));
  for (int k = 1; k < K; ++k)
    f = t.enqueue(Range<1, 1>(32, 32), f);
  f.wait();
}

/// Two independent compute-bound tasks of \p Groups work-groups of 1024
/// each (half the GPU's multiprocessors each): run one after the other
/// (\p Together false) or enqueued together and joined with &&.
void twoTasks(Pointer<float> Out, int Groups, int Iters, bool Together) {
  const std::size_t N = static_cast<std::size_t>(Groups) * 1024;
  Task<void, Index<1, 1>> first([=](Index<1, 1> i) __device(hpp) {
    float x = static_cast<float>(i.getX() % 97);
    for (int k = 0; k < Iters; ++k)
      x = x * 0.999f + 0.5f;
    Out[i.getX()] = x;
  });
  Task<void, Index<1, 1>> second([=](Index<1, 1> i) __device(hpp) {
    float x = static_cast<float>(i.getX() % 97);
    for (int k = 0; k < Iters; ++k)
      x = x * 0.999f + 0.5f;
    Out[N + i.getX()] = x;
  });
  if (Together) {
    Future<void> a = first.enqueue(Range<1, 1>(N, 1024));
    Future<void> b = second.enqueue(Range<1, 1>(N, 1024));
    (a && b).wait();
  } else {
    first.enqueue(Range<1, 1>(N, 1024)).wait();
    second.enqueue(Range<1, 1>(N, 1024)).wait();
  }
}

int main() {
  Pointer<int> Flag = allocate<int>(1);
  taskChain(Flag, 100);
  Pointer<float> Out = allocate<float>(2 * 4 * 1024);
  twoTasks(Out, 4, 10, true);
  float a = Out[5], b = Out[4 * 1024 + 5];
  twoTasks(Out, 4, 10, false);
  bool Ok = Flag[0] == 100 && a == b && Out[5] == a;
  std::printf("task workloads chain=%d %s\n", Flag[0], Ok ? "verified" : "FAILED");
  return Ok ? 0 : 1;
}
