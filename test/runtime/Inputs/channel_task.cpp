//===- test/runtime/Inputs/channel_task.cpp - Tasks that write channels ---===//
//
// Part of hpp-rewrite. Input of channel-task.test.
//
//===----------------------------------------------------------------------===//
//
// Tasks that write a channel, in the form hpp-rewrite emits (the task's
// lambda outlined into a kernel taking a hpp::detail::ChannelWriter, the
// Task made with hpp::detail::taskKernel(kernel,
// hpp::detail::channelWriter(c, BOUND))). The consumers a task's writes
// trigger belong to the task: its future's wait() and get(), and a task
// enqueued after the future, come after them. Each part checks its own
// results and prints one line ending in "verified" or "MISMATCH":
//  - get: a Task<int> writes 'writes' ids into a channel of 64 consumed in
//    batches of 16; once get() returns, every id has been consumed exactly
//    once, in writes/16 batches, and the results are there;
//  - dependent: a task enqueued after that future reads what the
//    consumers wrote (each id's count) and returns it: all 1;
//  - leftover: a task leaves values short of a batch; a parallelFor that
//    writes the channel (the host uses it while the task may be in flight)
//    completes them into batches;
//  - late: a task writes a batch into a channel that has no consumer yet,
//    and executeWith follows: one batch either way;
//  - twice: one Task enqueued twice on one channel, both futures waited
//    for at the end.
//
// Usage: channel_task [writes]   (default 10000, a multiple of 80)
//
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>
using namespace hpp;

#include <cstdio>
#include <cstdlib>
#include <vector>

static int Failures = 0;

static void report(bool Ok, const char *Line) {
  std::printf("%s %s\n", Line, Ok ? "verified" : "MISMATCH");
  Failures += !Ok;
}

/// Count[id] per id, Bad: ids out of range; the batches and those of the
/// wrong size.
struct Counters {
  Pointer<int> Count, Bad, Batches, WrongSize;
  explicit Counters(std::size_t Writes)
      : Count(allocate<int>(Writes)), Bad(allocate<int>(1)),
        Batches(allocate<int>(1)), WrongSize(allocate<int>(1)) {}
  ~Counters() {
    for (Pointer<int> P : {Count, Bad, Batches, WrongSize})
      deallocate(P);
  }
  /// Ids never consumed or consumed twice, plus Bad.
  int errors(std::size_t Writes) const {
    int E = Bad[0];
    for (std::size_t Id = 0; Id != Writes; ++Id)
      E += Count[Id] != 1;
    return E;
  }
};

// c.executeWith([=](Channel<int> *c) -> bool { return c->size() >= Batch; },
//               Range<1, 1>(Batch, Batch),
//               [=](Index<1, 1> i, Span<int> data) { ... });
__global__ void hpp_main_consumer0(
    hpp::Range<1, 1> hpp_range, hpp::detail::ChannelBatch<int> hpp_batch,
    const std::size_t Batch, const std::size_t Writes,
    const hpp::Pointer<int> Count, const hpp::Pointer<int> Bad,
    const hpp::Pointer<int> Batches, const hpp::Pointer<int> WrongSize) {
  if (!hpp_batch.ready())
    return;
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  hpp::Span<int> data = hpp_batch.span();
  {
    std::size_t l = i.getLocalX();
    if (l == 0) {
      atomicAdd(Batches, 1);
      if (data.size() != Batch)
        atomicAdd(WrongSize, 1);
    }
    if (l < data.size()) {
      int v = data[l];
      if (v < 0 || static_cast<std::size_t>(v) >= Writes)
        atomicAdd(Bad, 1);
      else
        atomicAdd(&Count[v], 1);
    }
  }
}

// Task<int, Index<1>> writer([=, &c](Index<1> i) -> int {
//   c.write(static_cast<int>(First + i));
//   return 2 * static_cast<int>(i);
// });
__global__ void hpp_main_task0(hpp::Range<1, 1> hpp_range,
                               hpp::detail::TaskResult<int> hpp_result,
                               hpp::detail::ChannelWriter<int> c,
                               const std::size_t First) {
  if (!hpp_result.runs())
    return;
  hpp::Index<1> i(hpp::detail::kernelIndex(hpp_range).fields());
  if (!i.inGlobalRange())
    return;
  {
    c.write(static_cast<int>(First + i));
    hpp_result.store(i, 2 * static_cast<int>(i));
    return;
  }
}

// Task<int, Index<1>> reader([=](Index<1> i) -> int { return Count[i]; });
__global__ void hpp_main_task1(hpp::Range<1, 1> hpp_range,
                               hpp::detail::TaskResult<int> hpp_result,
                               const hpp::Pointer<int> Count) {
  if (!hpp_result.runs())
    return;
  hpp::Index<1> i(hpp::detail::kernelIndex(hpp_range).fields());
  if (!i.inGlobalRange())
    return;
  {
    hpp_result.store(i, Count[i]);
    return;
  }
}

// parallelFor(Range<1>(n), [=, &c](Index<1> i) { c.write(int(First + i)); });
__global__ void hpp_main_pfor0(hpp::Range<1> hpp_range,
                               hpp::detail::ChannelWriter<int> c,
                               const std::size_t First) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  { c.write(static_cast<int>(First + i)); }
}

/// Installs the consumer of \p c: batches of \p Batch.
static void consumeInto(Channel<int> &c, std::size_t Batch, std::size_t Writes,
                        const Counters &C) {
  Pointer<int> Count = C.Count, Bad = C.Bad, Batches = C.Batches,
               WrongSize = C.WrongSize;
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= Batch; },
      Range<1, 1>(Batch, Batch),
      hpp::detail::consumerKernel(hpp_main_consumer0, Batch, Writes, Count,
                                  Bad, Batches, WrongSize));
}

static void getAndDependent(std::size_t Writes) {
  Counters C(Writes);
  Channel<int> c(64);
  consumeInto(c, 16, Writes, C);
  Task<int, Index<1>> writer(hpp::detail::taskKernel(
      hpp_main_task0, hpp::detail::channelWriter(c, 1u), std::size_t(0)));
  Future<std::vector<int>> Written = writer.enqueue(Range<1>(Writes));
  Pointer<int> Count = C.Count;
  Task<int, Index<1>> reader(hpp::detail::taskKernel(hpp_main_task1, Count));
  Future<std::vector<int>> Read = reader.enqueue(Range<1>(Writes), Written);
  // The dependent first: its future comes after the consumers too.
  std::vector<int> Counts = Read.get();
  int Wrong = 0;
  for (int N : Counts)
    Wrong += N != 1;
  char Line[256];
  std::snprintf(Line, sizeof Line, "dependent writes=%zu read=%zu wrong=%d",
                Writes, Counts.size(), Wrong);
  report(Counts.size() == Writes && Wrong == 0, Line);
  std::vector<int> Results = Written.get();
  int BadResults = Results.size() != Writes;
  for (std::size_t K = 0; !BadResults && K != Writes; ++K)
    BadResults += Results[K] != 2 * int(K);
  std::snprintf(Line, sizeof Line,
                "get writes=%zu batches=%d wrong=%d errors=%d results=%s "
                "left=%zu",
                Writes, C.Batches[0], C.WrongSize[0], C.errors(Writes),
                BadResults ? "bad" : "ok", c.size());
  report(C.Batches[0] == int(Writes / 16) && C.WrongSize[0] == 0 &&
             C.errors(Writes) == 0 && !BadResults && c.size() == 0,
         Line);
}

static void leftover(std::size_t Writes) {
  constexpr std::size_t Batch = 80;
  Counters C(Writes);
  Channel<int> c(80);
  consumeInto(c, Batch, Writes, C);
  const std::size_t First = Writes * 3 / 5 + 1;
  Task<int, Index<1>> writer(hpp::detail::taskKernel(
      hpp_main_task0, hpp::detail::channelWriter(c, 1u), std::size_t(0)));
  Future<std::vector<int>> F = writer.enqueue(Range<1>(First));
  hpp::launchKernel(hpp_main_pfor0, Range<1>(Writes - First),
                    hpp::detail::channelWriter(c, 1u), First);
  F.wait();
  char Line[256];
  std::snprintf(Line, sizeof Line,
                "leftover writes=%zu first=%zu batches=%d wrong=%d errors=%d "
                "left=%zu",
                Writes, First, C.Batches[0], C.WrongSize[0], C.errors(Writes),
                c.size());
  report(C.Batches[0] == int(Writes / Batch) && C.WrongSize[0] == 0 &&
             C.errors(Writes) == 0 && c.size() == 0,
         Line);
}

static void late() {
  constexpr std::size_t Writes = 16;
  Counters C(Writes);
  Channel<int> c(Writes);
  Task<int, Index<1>> writer(hpp::detail::taskKernel(
      hpp_main_task0, hpp::detail::channelWriter(c, 1u), std::size_t(0)));
  Future<std::vector<int>> F = writer.enqueue(Range<1>(Writes));
  // On a GPU the task has run (waited for here): the 16 values waiting
  // are handed over as one batch. The CPU backend runs the task when it
  // is waited for, and its writes complete the same batch.
  consumeInto(c, 16, Writes, C);
  F.wait();
  char Line[256];
  std::snprintf(Line, sizeof Line,
                "late writes=%zu batches=%d errors=%d left=%zu", Writes,
                C.Batches[0], C.errors(Writes), c.size());
  report(C.Batches[0] == 1 && C.errors(Writes) == 0 && c.size() == 0, Line);
}

static void twice(std::size_t Writes) {
  Counters C(2 * Writes);
  Channel<int> c(64);
  consumeInto(c, 16, 2 * Writes, C);
  Task<int, Index<1>> first(hpp::detail::taskKernel(
      hpp_main_task0, hpp::detail::channelWriter(c, 1u), std::size_t(0)));
  Task<int, Index<1>> second(hpp::detail::taskKernel(
      hpp_main_task0, hpp::detail::channelWriter(c, 1u), Writes));
  Future<std::vector<int>> F1 = first.enqueue(Range<1>(Writes));
  Future<std::vector<int>> F2 = second.enqueue(Range<1>(Writes));
  (F1 && F2).wait();
  char Line[256];
  std::snprintf(Line, sizeof Line, "twice writes=%zu batches=%d errors=%d "
                "left=%zu", 2 * Writes, C.Batches[0], C.errors(2 * Writes),
                c.size());
  report(C.Batches[0] == int(2 * Writes / 16) && C.errors(2 * Writes) == 0 &&
             c.size() == 0,
         Line);
}

int main(int argc, char **argv) {
  long Writes = argc > 1 ? std::atol(argv[1]) : 10000;
  if (argc > 2 || Writes <= 0 || Writes % 80 != 0) {
    std::fprintf(stderr, "usage: channel_task [writes]   (a multiple of 80)\n");
    return 2;
  }
  try {
    getAndDependent(std::size_t(Writes));
    leftover(std::size_t(Writes));
    late();
    twice(std::size_t(Writes));
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
  return Failures ? 1 : 0;
}
