//===- test/runtime/Inputs/channel_errors_ref.cpp - Channel misuse, dialect ===//
//
// Part of hpp-rewrite. Input of channel-errors.test.
//
//===----------------------------------------------------------------------===//
//
// The dialect programs that Inputs/channel_errors.cpp is the rewritten form
// of, for the CPU reference runtime (the task-chained mode is the device
// runtime's own: the reference runs it). Same modes, same output.
//
//===----------------------------------------------------------------------===//
#include <hpp/hpp.h>
using namespace hpp;

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  try {
    Pointer<int> Sum = allocate<int>(1);
    auto Consumer = [=](Index<1, 1> i, Span<int> data) __device(hpp) {
      if (i.getLocalX() < data.size())
        atomicAdd(Sum, data[i.getLocalX()]);
    };
    if (!std::strcmp(Mode, "no-consumer")) {
      Channel<int> c(4);
      parallelFor(Range<1>(10), [&c](Index<1> i) __device(hpp) { c.write(int(i)); });
    } else if (!std::strcmp(Mode, "never")) {
      Channel<int> c(4);
      c.executeWith(
          [=](Channel<int>* c) -> bool __device(coord) { return c->size() > 4; },
          Range<1, 1>(4, 4), Consumer);
      parallelFor(Range<1>(10), [&c](Index<1> i) __device(hpp) { c.write(int(i)); });
    } else if (!std::strcmp(Mode, "task-full")) {
      Channel<int> c(4);
      Task<void, Index<1>> t([=, &c](Index<1> i) __device(hpp) { c.write(int(i)); });
      Future<void> f = t.enqueue(Range<1>(10));
      f.wait();
    } else if (!std::strcmp(Mode, "task-dropped")) {
      Channel<int> c(4);
      Task<void, Index<1>> t([=, &c](Index<1> i) __device(hpp) { c.write(int(i)); });
      { Future<void> f = t.enqueue(Range<1>(10)); }
      parallelFor(Range<1>(1), [=](Index<1> i) __device(hpp) { Sum[0] = 1; });
    } else if (!std::strcmp(Mode, "capacity0")) {
      Channel<int> c(0);
    } else if (!std::strcmp(Mode, "twice")) {
      Channel<int> c(8);
      c.executeWith(
          [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 4; },
          Range<1, 1>(4, 4), Consumer);
      c.executeWith(
          [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 2; },
          Range<1, 1>(4, 4), Consumer);
    } else if (!std::strcmp(Mode, "warning")) {
      Channel<int> c(10);
      parallelFor(Range<1>(3), [&c](Index<1> i) __device(hpp) { c.write(int(i)); });
      std::printf("left: %zu\n", c.size());
      std::fflush(stdout);
      return 0;
    }
    std::printf("no error\n");
    return 0;
  } catch (const RuntimeError &E) {
    std::printf("what: %s\n", E.what());
    std::fflush(stdout);
    return 1;
  }
}
