//===- examples/channel_refill.cpp - A small channel filled many times ----===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Thousands of values written into a channel that holds a few dozen: the
/// channel is filled and drained hundreds of times within one parallelFor.
/// Every work-item writes one id; each time `batch` values wait, the
/// coordinator predicate hands them to a launch of the consumer, which
/// takes them as a `Span<int>` and counts each id with an atomic increment
/// of its counter. A write into a full channel waits until a consumer has
/// finished. Afterwards every counter must be exactly 1 (every value
/// consumed exactly once: none dropped, none twice), every batch must have
/// had `batch` values, and the number of consumer launches is
/// writes / batch. The consumers also keep count of the values they hold
/// at once, which must never exceed the channel's capacity.
///  - capacity 64, batches of 16: up to four batches in flight, consumed
///    by one work-group of 16 (a value per work-item);
///  - capacity 80, batches of 80 (each batch fills the channel), consumed
///    by 32 work-items with a strided loop, the ids written by two
///    parallelFor launches: the first leaves a value in the channel that
///    the second launch's writes hand over with their own.
///
/// Usage: channel_refill [writes]   (defaults to 10000, a multiple of 80)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>

using namespace hpp;

static int Failures = 0;

/// The counters of one run: Count[id] for each id, then the values seen
/// outside [0, writes), batches seen, batches of the wrong size, values in
/// consumers now and at most.
struct Counters {
  Pointer<int> Count, Bad, Batches, WrongSize, InFlight, MaxInFlight;
  explicit Counters(std::size_t Writes)
      : Count(allocate<int>(Writes)), Bad(allocate<int>(1)),
        Batches(allocate<int>(1)), WrongSize(allocate<int>(1)),
        InFlight(allocate<int>(1)), MaxInFlight(allocate<int>(1)) {}
  ~Counters() {
    for (Pointer<int> P : {Count, Bad, Batches, WrongSize, InFlight,
                           MaxInFlight})
      deallocate(P);
  }
};

/// Counts id \p v of \p Writes (device code).
__device(hpp) inline void consume(int v, std::size_t Writes,
                                  Pointer<int> Count, Pointer<int> Bad) {
  if (v < 0 || static_cast<std::size_t>(v) >= Writes)
    atomicAdd(Bad, 1);
  else
    atomicAdd(&Count[v], 1);
}

/// Checks the counters after \p Writes ids in batches of \p Batch through
/// a channel of \p Capacity; prints one line.
static void check(const char *Name, const Counters &C, std::size_t Writes,
                  std::size_t Capacity, std::size_t Batch, int Launches) {
  std::size_t Missing = 0, Twice = 0;
  for (std::size_t Id = 0; Id != Writes; ++Id) {
    Missing += C.Count[Id] == 0;
    Twice += C.Count[Id] > 1;
  }
  bool Ok = Missing == 0 && Twice == 0 && C.Bad[0] == 0 &&
            C.WrongSize[0] == 0 &&
            C.Batches[0] == static_cast<int>(Writes / Batch) &&
            C.InFlight[0] == 0 && C.MaxInFlight[0] > 0 &&
            C.MaxInFlight[0] <= static_cast<int>(Capacity);
  if (Ok) {
    std::printf("%s capacity=%zu batch=%zu writes=%zu launches=%d "
                "batches=%d verified\n",
                Name, Capacity, Batch, Writes, Launches, C.Batches[0]);
    return;
  }
  ++Failures;
  std::printf("%s capacity=%zu batch=%zu writes=%zu MISMATCH: %zu ids never "
              "consumed, %zu consumed more than once, %d values out of range, "
              "%d batches (expected %zu), %d of the wrong size, at most %d "
              "values in consumers at once, %d at the end\n",
              Name, Capacity, Batch, Writes, Missing, Twice, C.Bad[0],
              C.Batches[0], Writes / Batch, C.WrongSize[0], C.MaxInFlight[0],
              C.InFlight[0]);
}

/// Capacity 64, batches of 16, one value per consumer work-item.
static void quarterBatches(std::size_t Writes) {
  constexpr std::size_t Capacity = 64, Batch = 16;
  Counters C(Writes);
  Pointer<int> Count = C.Count, Bad = C.Bad, Batches = C.Batches,
               WrongSize = C.WrongSize, InFlight = C.InFlight,
               MaxInFlight = C.MaxInFlight;
  Channel<int> c(Capacity);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= Batch; },
      Range<1, 1>(Batch, Batch), [=](Index<1, 1> i, Span<int> data) __device(hpp) {
        std::size_t l = i.getLocalX();
        int held = l < data.size() ? 1 : 0;
        atomicMax(MaxInFlight, atomicAdd(InFlight, held) + held);
        if (l == 0) {
          atomicAdd(Batches, 1);
          if (data.size() != Batch)
            atomicAdd(WrongSize, 1);
        }
        if (l < data.size())
          consume(data[l], Writes, Count, Bad);
        atomicSub(InFlight, held);
      });
  parallelFor(Range<1>(Writes), [=, &c](Index<1> i) __device(hpp) {
    c.write(static_cast<int>(Writes - 1 - i));
  });
  check("refill", C, Writes, Capacity, Batch, 1);
}

/// Capacity 80, batches of 80, a strided consumer of 32 work-items; the
/// ids come from two launches.
static void fullBatches(std::size_t Writes) {
  constexpr std::size_t Capacity = 80, Batch = 80, Consumers = 32;
  Counters C(Writes);
  Pointer<int> Count = C.Count, Bad = C.Bad, Batches = C.Batches,
               WrongSize = C.WrongSize, InFlight = C.InFlight,
               MaxInFlight = C.MaxInFlight;
  Channel<int> c(Capacity);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= Batch; },
      Range<1>(Consumers), [=](Index<1> i, Span<int> data) __device(hpp) {
        int held = 0;
        for (std::size_t k = i; k < data.size(); k += Consumers)
          ++held;
        atomicMax(MaxInFlight, atomicAdd(InFlight, held) + held);
        if (i == 0) {
          atomicAdd(Batches, 1);
          if (data.size() != Batch)
            atomicAdd(WrongSize, 1);
        }
        for (std::size_t k = i; k < data.size(); k += Consumers)
          consume(data[k], Writes, Count, Bad);
        atomicSub(InFlight, held);
      });
  // The first launch leaves First % Batch values in the channel; the
  // second launch's writes complete that batch.
  std::size_t First = Writes * 3 / 5 + 1;
  parallelFor(Range<1>(First), [=, &c](Index<1> i) __device(hpp) {
    c.write(static_cast<int>(i));
  });
  parallelFor(Range<1>(Writes - First), [=, &c](Index<1> i) __device(hpp) {
    c.write(static_cast<int>(First + i));
  });
  check("refill-full", C, Writes, Capacity, Batch, 2);
}

int main(int argc, char **argv) {
  long Arg = argc > 1 ? std::atol(argv[1]) : 10000;
  if (argc > 2 || Arg <= 0 || Arg % 80 != 0) {
    std::fprintf(stderr, "usage: channel_refill [writes]   (a multiple of "
                         "80)\n");
    return 2;
  }
  std::size_t Writes = static_cast<std::size_t>(Arg);
  quarterBatches(Writes);
  fullBatches(Writes);
  return Failures ? 1 : 0;
}
