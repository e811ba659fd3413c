//===- test/runtime/Inputs/channel_launch.cpp - Channels, rewritten form --===//
//
// Part of hpp-rewrite. Input of channel.test, and a GPU benchmark.
//
//===----------------------------------------------------------------------===//
//
// Channels written as hpp-rewrite emits them (notes/channel-interface.md):
// the consumer lambda outlined into a kernel taking the batch
// (hpp::detail::ChannelBatch) and passed as hpp::detail::consumerKernel;
// a kernel that writes a channel takes a hpp::detail::ChannelWriter and is
// launched with hpp::detail::channelWriter(c, BOUND). Each part checks its
// own results and prints one line ending in "verified" or "MISMATCH":
//  - reduction: the paper's global reduction (examples/channel_reduction.cpp):
//    n inputs through a channel of channelSize into a consumer over
//    Range<1,1>(channelSize, channelSize) that reduces its batch in a
//    DistArray of two regions with barriers;
//  - refill: 'writes' ids through a channel of 64, batches of 16, each id
//    consumed exactly once, exactly writes/16 batches of 16, and a
//    producer's c.size() always below 16;
//  - leftover: the same ids in batches of 80 by a Range<1>(32) consumer,
//    written by two launches: the first leaves a value that the second's
//    writes complete into a batch (c.size() is 1 in between);
//  - chain: a consumer that writes each value of its batch into a second
//    channel (batches of 8 into batches of 20), whose consumer counts them;
//  - self: a consumer that writes into its own channel;
//  - shared: one launch writes two channels, and the first one's consumer
//    writes into the second while the launch's values are still in it.
//
// Usage: channel_launch [n [channelSize [writes [repeat]]]]
// (defaults 16384 128 10000 1; n a multiple of channelSize <= 1024, writes
// a multiple of 80). With repeat > 1 every part runs that many times, and
// the mean time of a run, and of its producer launches with the consumer
// launches they trigger, is printed on stderr (the GPU benchmark).
//
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>
using namespace hpp;

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>

static int Failures = 0;

/// Microseconds spent in the producer launches (with the consumer launches
/// they trigger) since the last part began: a LaunchClock around each.
static double LaunchUs = 0;
struct LaunchClock {
  std::chrono::steady_clock::time_point Start =
      std::chrono::steady_clock::now();
  ~LaunchClock() {
    LaunchUs += std::chrono::duration<double, std::micro>(
                    std::chrono::steady_clock::now() - Start)
                    .count();
  }
};

static void report(bool Ok, const char *Line) {
  std::printf("%s %s\n", Line, Ok ? "verified" : "MISMATCH");
  Failures += !Ok;
}

//===-- reduction --------------------------------------------------------===//

static int inputAt(std::size_t k) {
  return static_cast<int>(k * 7919 % 2003) - 1000;
}

__global__ void hpp_reduction_consumer0(
    hpp::Range<1, 1> hpp_range, hpp::detail::ChannelBatch<int> hpp_batch,
    hpp::BoundDistArray<int> a, const hpp::Region<int> sums,
    const hpp::Region<int> maxima, const hpp::Pointer<int> wrongSize,
    const hpp::Pointer<int> total, const hpp::Pointer<int> maximum,
    const hpp::Pointer<int> batches) {
  if (!hpp_batch.ready())
    return;
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  hpp::Span<int> data = hpp_batch.span();
  {
    Segment<int> s = a(sums);
    Segment<int> m = a(maxima);
    std::size_t l = i.getLocalX(), g = s.getRegionSize();
    if (l == 0 && data.size() != g)
      atomicAdd(wrongSize, 1);
    int v = l < data.size() ? data[l] : 0;
    s[l] = v;
    m[l] = l < data.size() ? v : INT_MIN;
    s.barrier();
    std::size_t half = 1;
    while (half * 2 < g)
      half *= 2;
    for (; half > 0; half /= 2) {
      if (l < half && l + half < g) {
        s[l] += s[l + half];
        m[l] = m[l] < m[l + half] ? m[l + half] : m[l];
      }
      s.barrier();
    }
    if (l == 0) {
      atomicAdd(total, s[0]);
      atomicMax(maximum, m[0]);
      atomicAdd(batches, 1);
    }
  }
}

__global__ void hpp_reduction_pfor0(hpp::Range<1> hpp_range,
                                    hpp::detail::ChannelWriter<int> c,
                                    const hpp::Pointer<int> input) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  { c.write(input[i]); }
}

static void reduction(std::size_t n, std::size_t channelSize) {
  Pointer<int> input = allocate<int>(n);
  for (std::size_t k = 0; k != n; ++k)
    input[k] = inputAt(k);
  Pointer<int> total = allocate<int>(1), maximum = allocate<int>(1),
               batches = allocate<int>(1), wrongSize = allocate<int>(1);
  maximum[0] = INT_MIN;

  DistArray<int> darray;
  Region<int> sums = darray.allocRegion(channelSize);
  Region<int> maxima = darray.allocRegion(channelSize);

  Channel<int> c(channelSize);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= channelSize; },
      Range<1, 1>(channelSize, channelSize), darray,
      hpp::detail::consumerKernel(hpp_reduction_consumer0, sums, maxima,
                                  wrongSize, total, maximum, batches));
  {
    LaunchClock Clock;
    hpp::launchKernel(hpp_reduction_pfor0, Range<1>(n),
                      hpp::detail::channelWriter(c, 1u), input);
  }

  long long WantTotal = 0;
  int WantMax = INT_MIN;
  for (std::size_t k = 0; k != n; ++k) {
    WantTotal += inputAt(k);
    WantMax = inputAt(k) > WantMax ? inputAt(k) : WantMax;
  }
  char Line[256];
  std::snprintf(Line, sizeof Line,
                "reduction n=%zu channelSize=%zu batches=%d wrong=%d "
                "total=%d max=%d left=%zu",
                n, channelSize, batches[0], wrongSize[0], total[0],
                maximum[0], c.size());
  report(total[0] == WantTotal && maximum[0] == WantMax &&
             batches[0] == int(n / channelSize) && wrongSize[0] == 0 &&
             c.size() == 0,
         Line);
  for (Pointer<int> P : {input, total, maximum, batches, wrongSize})
    deallocate(P);
}

//===-- refill and leftover ----------------------------------------------===//

/// Count[id] per id; Bad: ids out of range and producers that saw
/// size() >= the batch; the batches and those of the wrong size.
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

__device__ inline void consume(int v, std::size_t Writes, Pointer<int> Count,
                               Pointer<int> Bad) {
  if (v < 0 || static_cast<std::size_t>(v) >= Writes)
    atomicAdd(Bad, 1);
  else
    atomicAdd(&Count[v], 1);
}

__global__ void hpp_refill_consumer0(
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
    if (l < data.size())
      consume(data[l], Writes, Count, Bad);
  }
}

__global__ void hpp_refill_pfor0(hpp::Range<1> hpp_range,
                                 hpp::detail::ChannelWriter<int> c,
                                 const std::size_t Writes,
                                 const std::size_t Batch,
                                 const hpp::Pointer<int> Bad) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    c.write(static_cast<int>(Writes - 1 - i));
    if (c.size() >= Batch)
      atomicAdd(Bad, 1);
  }
}

static void refill(std::size_t Writes) {
  constexpr std::size_t Capacity = 64, Batch = 16;
  Counters C(Writes);
  Pointer<int> Count = C.Count, Bad = C.Bad, Batches = C.Batches,
               WrongSize = C.WrongSize;
  Channel<int> c(Capacity);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= Batch; },
      Range<1, 1>(Batch, Batch),
      hpp::detail::consumerKernel(hpp_refill_consumer0, Batch, Writes, Count,
                                  Bad, Batches, WrongSize));
  {
    LaunchClock Clock;
    hpp::launchKernel(hpp_refill_pfor0, Range<1>(Writes),
                      hpp::detail::channelWriter(c, 1u), Writes, Batch, Bad);
  }
  char Line[256];
  std::snprintf(Line, sizeof Line,
                "refill capacity=%zu batch=%zu writes=%zu batches=%d "
                "wrong=%d errors=%d left=%zu",
                Capacity, Batch, Writes, Batches[0], WrongSize[0],
                C.errors(Writes), c.size());
  report(Batches[0] == int(Writes / Batch) && WrongSize[0] == 0 &&
             C.errors(Writes) == 0 && c.size() == 0,
         Line);
}

__global__ void hpp_leftover_consumer0(
    hpp::Range<1> hpp_range, hpp::detail::ChannelBatch<int> hpp_batch,
    const std::size_t Consumers, const std::size_t Batch,
    const std::size_t Writes, const hpp::Pointer<int> Count,
    const hpp::Pointer<int> Bad, const hpp::Pointer<int> Batches,
    const hpp::Pointer<int> WrongSize) {
  if (!hpp_batch.ready())
    return;
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  hpp::Span<int> data = hpp_batch.span();
  {
    if (i == 0) {
      atomicAdd(Batches, 1);
      if (data.size() != Batch)
        atomicAdd(WrongSize, 1);
    }
    for (std::size_t k = i; k < data.size(); k += Consumers)
      consume(data[k], Writes, Count, Bad);
  }
}

__global__ void hpp_leftover_pfor0(hpp::Range<1> hpp_range,
                                   hpp::detail::ChannelWriter<int> c,
                                   const std::size_t First) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  { c.write(static_cast<int>(First + i)); }
}

static void leftover(std::size_t Writes) {
  constexpr std::size_t Capacity = 80, Batch = 80, Consumers = 32;
  Counters C(Writes);
  Pointer<int> Count = C.Count, Bad = C.Bad, Batches = C.Batches,
               WrongSize = C.WrongSize;
  Channel<int> c(Capacity);
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= Batch; },
      Range<1>(Consumers),
      hpp::detail::consumerKernel(hpp_leftover_consumer0, Consumers, Batch,
                                  Writes, Count, Bad, Batches, WrongSize));
  std::size_t First = Writes * 3 / 5 + 1;
  {
    LaunchClock Clock;
    hpp::launchKernel(hpp_leftover_pfor0, Range<1>(First),
                      hpp::detail::channelWriter(c, 1u), std::size_t(0));
  }
  std::size_t Between = c.size(), BatchesBetween = std::size_t(Batches[0]);
  {
    LaunchClock Clock;
    hpp::launchKernel(hpp_leftover_pfor0, Range<1>(Writes - First),
                      hpp::detail::channelWriter(c, 1u), First);
  }
  char Line[256];
  std::snprintf(Line, sizeof Line,
                "leftover capacity=%zu batch=%zu writes=%zu first=%zu "
                "between=%zu/%zu batches=%d wrong=%d errors=%d left=%zu",
                Capacity, Batch, Writes, First, BatchesBetween, Between,
                Batches[0], WrongSize[0], C.errors(Writes), c.size());
  report(Between == First % Batch && BatchesBetween == First / Batch &&
             Batches[0] == int(Writes / Batch) && WrongSize[0] == 0 &&
             C.errors(Writes) == 0 && c.size() == 0,
         Line);
}

//===-- chain ------------------------------------------------------------===//

__global__ void hpp_chain_consumer0(hpp::Range<1, 1> hpp_range,
                                    hpp::detail::ChannelBatch<int> hpp_batch,
                                    hpp::detail::ChannelWriter<int> second,
                                    const hpp::Pointer<int> Batches) {
  if (!hpp_batch.ready())
    return;
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  hpp::Span<int> data = hpp_batch.span();
  {
    std::size_t l = i.getLocalX();
    if (l == 0)
      atomicAdd(Batches, 1);
    if (l < data.size())
      second.write(data[l]);
  }
}

__global__ void hpp_chain_consumer1(hpp::Range<1, 1> hpp_range,
                                    hpp::detail::ChannelBatch<int> hpp_batch,
                                    const std::size_t Batch,
                                    const std::size_t Writes,
                                    const hpp::Pointer<int> Count,
                                    const hpp::Pointer<int> Bad,
                                    const hpp::Pointer<int> Batches,
                                    const hpp::Pointer<int> WrongSize) {
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
    if (l < data.size())
      consume(data[l], Writes, Count, Bad);
  }
}

static void chain(std::size_t Writes) {
  Counters C(Writes);
  Pointer<int> Count = C.Count, Bad = C.Bad, Batches = C.Batches,
               WrongSize = C.WrongSize, FirstBatches = allocate<int>(1);
  Channel<int> second(64);
  second.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 20; },
      Range<1, 1>(32, 32),
      hpp::detail::consumerKernel(hpp_chain_consumer1, std::size_t(20), Writes,
                                  Count, Bad, Batches, WrongSize));
  Channel<int> first(32);
  first.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 8; },
      Range<1, 1>(8, 8),
      hpp::detail::consumerKernel(hpp_chain_consumer0,
                                  hpp::detail::channelWriter(second, 1u),
                                  FirstBatches));
  {
    LaunchClock Clock;
    hpp::launchKernel(hpp_leftover_pfor0, Range<1>(Writes),
                      hpp::detail::channelWriter(first, 1u), std::size_t(0));
  }
  char Line[256];
  std::snprintf(Line, sizeof Line,
                "chain writes=%zu first=%d batches=%d wrong=%d errors=%d "
                "left=%zu+%zu",
                Writes, FirstBatches[0], Batches[0], WrongSize[0],
                C.errors(Writes), first.size(), second.size());
  report(FirstBatches[0] == int(Writes / 8) &&
             Batches[0] == int(Writes / 20) && WrongSize[0] == 0 &&
             C.errors(Writes) == 0 && first.size() == 0 && second.size() == 0,
         Line);
  deallocate(FirstBatches);
}

//===-- self and shared --------------------------------------------------===//

/// Counts each value of its batch; values below Renew come back into the
/// channel once more, as N + the value.
__global__ void hpp_self_consumer0(hpp::Range<1, 1> hpp_range,
                                   hpp::detail::ChannelBatch<int> hpp_batch,
                                   hpp::detail::ChannelWriter<int> c,
                                   const int N, const int Renew,
                                   const hpp::Pointer<int> Count,
                                   const hpp::Pointer<int> Batches) {
  if (!hpp_batch.ready())
    return;
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  hpp::Span<int> data = hpp_batch.span();
  {
    std::size_t l = i.getLocalX();
    if (l == 0)
      atomicAdd(Batches, 1);
    if (l < data.size()) {
      atomicAdd(&Count[data[l]], 1);
      if (data[l] < Renew)
        c.write(N + data[l]);
    }
  }
}

/// A consumer that writes into its own channel: n ids, the first n/2 of
/// which come back once as n + id, all consumed exactly once in batches
/// of 8 (n a multiple of 16).
static void self(std::size_t n) {
  const int Renew = int(n / 2);
  Counters C(n + n / 2);
  Pointer<int> Count = C.Count, Batches = C.Batches;
  Channel<int> c(16); // a batch and one launch's writes
  c.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 8; },
      Range<1, 1>(8, 8),
      hpp::detail::consumerKernel(hpp_self_consumer0,
                                  hpp::detail::channelWriter(c, 1u), int(n),
                                  Renew, Count, Batches));
  {
    LaunchClock Clock;
    hpp::launchKernel(hpp_leftover_pfor0, Range<1>(n),
                      hpp::detail::channelWriter(c, 1u), std::size_t(0));
  }
  char Line[256];
  std::snprintf(Line, sizeof Line, "self ids=%zu batches=%d errors=%d left=%zu",
                n + n / 2, Batches[0], C.errors(n + n / 2), c.size());
  report(Batches[0] == int((n + n / 2) / 8) && C.errors(n + n / 2) == 0 &&
             c.size() == 0,
         Line);
}

__global__ void hpp_shared_pfor0(hpp::Range<1> hpp_range,
                                 hpp::detail::ChannelWriter<int> a,
                                 hpp::detail::ChannelWriter<int> b,
                                 const int n) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    a.write(int(i));
    b.write(n + int(i));
  }
}

/// Writes each value of its batch, plus 2n, into channel b.
__global__ void hpp_shared_consumer0(hpp::Range<1, 1> hpp_range,
                                     hpp::detail::ChannelBatch<int> hpp_batch,
                                     hpp::detail::ChannelWriter<int> b,
                                     const int n) {
  if (!hpp_batch.ready())
    return;
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  hpp::Span<int> data = hpp_batch.span();
  {
    std::size_t l = i.getLocalX();
    if (l < data.size())
      b.write(2 * n + data[l]);
  }
}

/// One launch writes channels a and b; a's consumer writes into b too,
/// while b still holds what the launch wrote into it: b's consumer counts
/// ids n..3n-1 exactly once, in batches of 32 (n a multiple of 16).
static void shared(std::size_t n) {
  Counters C(3 * n);
  Pointer<int> Count = C.Count, Bad = C.Bad, Batches = C.Batches,
               WrongSize = C.WrongSize;
  std::size_t Writes = 3 * n;
  Channel<int> b(48);
  b.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 32; },
      Range<1, 1>(64, 64),
      hpp::detail::consumerKernel(hpp_chain_consumer1, std::size_t(32), Writes,
                                  Count, Bad, Batches, WrongSize));
  Channel<int> a(16);
  a.executeWith(
      [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 8; },
      Range<1, 1>(16, 16),
      hpp::detail::consumerKernel(hpp_shared_consumer0,
                                  hpp::detail::channelWriter(b, 1u), int(n)));
  {
    LaunchClock Clock;
    hpp::launchKernel(hpp_shared_pfor0, Range<1>(n),
                      hpp::detail::channelWriter(a, 1u),
                      hpp::detail::channelWriter(b, 1u), int(n));
  }
  for (std::size_t Id = 0; Id != n; ++Id) // Never written.
    Count[Id] = 1;
  char Line[256];
  std::snprintf(Line, sizeof Line,
                "shared n=%zu batches=%d wrong=%d errors=%d left=%zu+%zu", n,
                Batches[0], WrongSize[0], C.errors(Writes), a.size(), b.size());
  report(Batches[0] == int(2 * n / 32) && WrongSize[0] == 0 &&
             C.errors(Writes) == 0 &&
             a.size() == 0 && b.size() == 0,
         Line);
}

//===-- main -------------------------------------------------------------===//

/// Runs \p Part \p Repeat times; with more than one, prints the mean time
/// of a run and of its launches (each run makes its channels anew: the
/// storage is allocated by their first launch).
template <class F> static void timed(const char *Name, long Repeat, F Part) {
  LaunchUs = 0;
  const auto Start = std::chrono::steady_clock::now();
  for (long R = 0; R < Repeat; ++R)
    Part();
  const double Us = std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now() - Start)
                        .count();
  if (Repeat > 1)
    std::fprintf(stderr,
                 "time: %s %.1f us per run, %.1f us of it in launches (%ld "
                 "runs)\n",
                 Name, Us / double(Repeat), LaunchUs / double(Repeat), Repeat);
}

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 16384;
  long Size = argc > 2 ? std::atol(argv[2]) : 128;
  long Writes = argc > 3 ? std::atol(argv[3]) : 10000;
  long Repeat = argc > 4 ? std::atol(argv[4]) : 1;
  if (argc > 5 || N <= 0 || Size <= 0 || Size > 1024 || N % Size != 0 ||
      Writes <= 0 || Writes % 80 != 0 || Repeat <= 0) {
    std::fprintf(stderr, "usage: channel_launch [n [channelSize [writes "
                         "[repeat]]]]   (n a multiple of channelSize <= 1024, "
                         "writes a multiple of 80)\n");
    return 2;
  }
  try {
    timed("reduction", Repeat, [&] { reduction(N, Size); });
    timed("refill", Repeat, [&] { refill(Writes); });
    timed("leftover", Repeat, [&] { leftover(Writes); });
    timed("chain", Repeat, [&] { chain(Writes); });
    timed("self", Repeat, [&] { self(Writes / 5); });
    timed("shared", Repeat, [&] { shared(Writes / 5); });
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
  return Failures ? 1 : 0;
}
