//===- big_capacity.cpp - Channels of a very large capacity ---------------===//
//
// Part of hpp-rewrite. Input of test/runtime/channel-big-capacity.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The predicate is a pure function of size(): the device runtime asks it
/// about the sizes a launch can reach, lazily, never about every size up
/// to the capacity. A capacity of 2^37 costs what one of 100 does:
///  - k100: batches of 100 from 1000 writes;
///  - exactly37: a predicate that holds only at 37 (27 batches, one value
///    left: the warning at the channel's destruction);
///  - later: k* = 150 is only reachable by the second launch (100 writes
///    each): the values of the first wait, then one batch of 150;
///  - never: a predicate that no reachable size satisfies (2^40 capacity):
///    every value is left;
///  - full: a capacity of 8 and a predicate that holds for no size up to
///    it: the write that finds it full fails, as documented ("nothing can
///    ever drain it").
/// Each case prints the values consumed and the batches; messages are
/// printed with the directories removed.
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
  {
    n[0] = n[1] = 0;
    Channel<int> c(std::size_t(1) << 37);
    c.executeWith(
        [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 100; },
        Range<1>(1),
        [=](Index<1> i, std::vector<int> data) __device(hpp) {
          atomicAdd(&n[0], int(data.size()));
          atomicAdd(&n[1], 1);
        });
    parallelFor(Range<1>(1000), [=, &c](Index<1> i) __device(hpp) { c.write(1); });
    std::printf("k100: consumed %d in %d batches, left %zu\n", n[0], n[1],
                c.size());
  }
  {
    n[0] = n[1] = 0;
    Channel<int> c(std::size_t(1) << 37);
    c.executeWith(
        [=](Channel<int> *c) -> bool __device(coord) { return c->size() == 37; },
        Range<1>(1),
        [=](Index<1> i, std::vector<int> data) __device(hpp) {
          atomicAdd(&n[0], int(data.size()));
          atomicAdd(&n[1], 1);
        });
    parallelFor(Range<1>(1000), [=, &c](Index<1> i) __device(hpp) { c.write(1); });
    std::printf("exactly37: consumed %d in %d batches, left %zu\n", n[0], n[1],
                c.size());
    std::fflush(stdout);
  }
  {
    n[0] = n[1] = 0;
    Channel<int> c(std::size_t(1) << 37);
    c.executeWith(
        [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 150; },
        Range<1>(1),
        [=](Index<1> i, std::vector<int> data) __device(hpp) {
          atomicAdd(&n[0], int(data.size()));
          atomicAdd(&n[1], 1);
        });
    parallelFor(Range<1>(100), [=, &c](Index<1> i) __device(hpp) { c.write(1); });
    std::printf("later: after one launch consumed %d, left %zu\n", n[0],
                c.size());
    parallelFor(Range<1>(100), [=, &c](Index<1> i) __device(hpp) { c.write(1); });
    std::printf("later: consumed %d in %d batches, left %zu\n", n[0], n[1],
                c.size());
    std::fflush(stdout);
  }
  {
    n[0] = n[1] = 0;
    Channel<int> c(std::size_t(1) << 40);
    c.executeWith(
        [=](Channel<int> *c) -> bool __device(coord) {
          return c->size() >= (std::size_t(1) << 39);
        },
        Range<1>(1),
        [=](Index<1> i, std::vector<int> data) __device(hpp) {
          atomicAdd(&n[0], int(data.size()));
        });
    parallelFor(Range<1>(5000), [=, &c](Index<1> i) __device(hpp) { c.write(1); });
    std::printf("never: consumed %d, left %zu\n", n[0], c.size());
    std::fflush(stdout);
  }
  try {
    Channel<int> c(8);
    c.executeWith(
        [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 100; },
        Range<1>(1),
        [=](Index<1> i, std::vector<int> data) __device(hpp) {
          atomicAdd(&n[0], int(data.size()));
        });
    parallelFor(Range<1>(16), [=, &c](Index<1> i) __device(hpp) {
      c.write(1); // FULL
    });
    std::printf("full: MISMATCH: no error\n");
  } catch (const RuntimeError &E) {
    std::printf("full: %s\n", shown(E.what()).c_str());
  }
  std::fflush(stdout);
  deallocate(n);
  return 0;
}
