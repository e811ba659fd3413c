//===- channel_destroyed.cpp - A channel destroyed before its writers ran -===//
//
// Part of hpp-rewrite. Input of test/runtime/channel-destroyed.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A Channel destroyed while a task that writes it (through the reference
/// it captured) is pending: the destructor completes that task first, then
/// the consumers its writes triggered, so the task never writes a channel
/// that is gone (docs/dialect.md, Channels). On the CPU runtimes the task
/// has not run yet when the scope ends (tasks run late); on a GPU it may
/// still be running. Cases:
///  - pending: a task of 16 writes into a channel of batches of 4, its
///    future waited for after the channel's scope: 4 batches ran;
///  - dropped: the same with the future dropped inside the scope;
///  - chained: two tasks, the second enqueued after the first, both
///    writing; waited for after the scope;
///  - failing: the pending task fails (a write into a channel that nothing
///    can drain): the destructor does not throw, the error comes out of the
///    future's wait(), at the write's line, naming the enqueue.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace hpp;

/// \p Msg with the directories of this file's path removed.
static std::string shown(std::string Msg) {
  const std::string Path = __FILE__;
  const std::string Name = Path.substr(Path.find_last_of('/') + 1);
  for (std::size_t At = 0; (At = Msg.find(Path, At)) != std::string::npos;
       At += Name.size())
    Msg.replace(At, Path.size(), Name);
  return Msg;
}

int main() {
  Pointer<int> n = allocate<int>(2);

  // pending
  n[0] = n[1] = 0;
  Future<void> f;
  {
    Channel<int> c(64);
    c.executeWith(
        [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 4; },
        Range<1>(1),
        [=](Index<1> i, std::vector<int> data) __device(hpp) {
          atomicAdd(&n[0], 1);
          atomicAdd(&n[1], int(data.size()));
        });
    Task<void, Index<1>> t([=, &c](Index<1> i) __device(hpp) { c.write(1); });
    f = t.enqueue(Range<1>(16));
  }
  try {
    f.wait();
    std::printf("pending: %d batches, %d values\n", n[0], n[1]);
  } catch (const RuntimeError &E) {
    std::printf("pending: error: %s\n", shown(E.what()).c_str());
  }

  // dropped
  n[0] = n[1] = 0;
  {
    Channel<int> c(64);
    c.executeWith(
        [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 4; },
        Range<1>(1),
        [=](Index<1> i, std::vector<int> data) __device(hpp) {
          atomicAdd(&n[0], 1);
          atomicAdd(&n[1], int(data.size()));
        });
    Task<void, Index<1>> t([=, &c](Index<1> i) __device(hpp) { c.write(1); });
    t.enqueue(Range<1>(32));
  }
  std::printf("dropped: %d batches, %d values\n", n[0], n[1]);

  // chained
  n[0] = n[1] = 0;
  Future<void> g;
  {
    Channel<int> c(64);
    c.executeWith(
        [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 8; },
        Range<1>(1),
        [=](Index<1> i, std::vector<int> data) __device(hpp) {
          atomicAdd(&n[0], 1);
          atomicAdd(&n[1], int(data.size()));
        });
    Task<void, Index<1>> t([=, &c](Index<1> i) __device(hpp) { c.write(2); });
    Future<void> first = t.enqueue(Range<1>(24));
    g = t.enqueue(Range<1>(16), first);
  }
  try {
    g.wait();
    std::printf("chained: %d batches, %d values\n", n[0], n[1]);
  } catch (const RuntimeError &E) {
    std::printf("chained: error: %s\n", shown(E.what()).c_str());
  }

  // failing
  Future<void> h;
  {
    Channel<int> c(8);
    Task<void, Index<1>> t([=, &c](Index<1> i) __device(hpp) {
      c.write(3); // FULL
    });
    h = t.enqueue(Range<1>(16));
  }
  try {
    h.wait();
    std::printf("failing: MISMATCH: no error\n");
  } catch (const RuntimeError &E) {
    std::printf("failing: error: %s\n", shown(E.what()).c_str());
  }
  std::fflush(stdout);
  deallocate(n);
  return 0;
}
