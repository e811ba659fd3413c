//===- channel_self_full.cpp - A consumer that overfills its own channel --===//
//
// Part of hpp-rewrite. Test input (test/runtime/channel-self-full.test).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A consumer of batches of 8 that writes one value per work-item back into
/// its own channel. With capacity 8 (argument "full") the batch it holds
/// fills the channel, so its first write can never be drained: the
/// reference fails whatever the timing, and so must the rewritten program.
/// With capacity 128 (no argument) nothing ever waits: every
/// value is consumed once, on both runtimes.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstring>

using namespace hpp;

int main(int argc, char **argv) {
  const bool Full = argc > 1 && !std::strcmp(argv[1], "full");
  const int N = 64;
  Pointer<int> Seen = allocate<int>(2 * N);
  try {
    Channel<int> c(Full ? 8 : 128);
    c.executeWith(
        [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 8; },
        Range<1, 1>(8, 8), [=, &c](Index<1, 1> i, Span<int> data) __device(hpp) {
          std::size_t l = i.getLocalX();
          if (l < data.size()) {
            atomicAdd(&Seen[data[l]], 1);
            if (data[l] < N / 2)
              c.write(N + data[l]);
          }
        });
    parallelFor(Range<1>(N), [=, &c](Index<1> i) __device(hpp) {
      c.write(int(i.getX()));
    });
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    deallocate(Seen);
    return 1;
  }
  int Bad = 0;
  for (int k = 0; k < N + N / 2; ++k)
    Bad += Seen[k] != 1;
  std::printf("self-writing consumer: %d values, %d not consumed exactly once\n",
              N + N / 2, Bad);
  deallocate(Seen);
  return Bad ? 1 : 0;
}
