//===- bench/channel_workloads.cpp - Dialect side of the channel benchmark ===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The channel workloads bench/channel_bench.cu times, written in the
/// dialect: hpp-rewrite turns this file into the source that benchmark
/// #includes (HPP_GENERATED). Runs on the CPU too (main below checks the
/// results).
///
///  - channelReduceRuns: the HPP paper's global reduction through a
///    channel, on floats. A parallelFor of `groups` work-groups of 512 sums
///    a grid-stride share of the input per work-item, folds the work-group's
///    sums in a DistArray region, and work-item 0 writes the group's sum
///    into a Channel<float> of capacity `groups`. The coordinator holds when
///    all `groups` sums are in; the consumer, one work-group of `groups`
///    work-items, folds them the same way and stores the total. One
///    producer launch and one consumer launch per run.
///  - channelLatencyRuns: "predicate true -> consumer running". A one-warp
///    parallelFor writes the time into a Channel<unsigned long long> whose
///    coordinator holds at one value; the consumer subtracts it from the
///    time at its start. With a delay, the writer first spins that many ns
///    (a predicate that becomes true in the middle of a producer; no delay
///    where the time is 0).
///
/// Both call `Hook(run, 0)` before and `Hook(run, 1)` after each run (the
/// benchmark records its events there). The time is HPP_BENCH_NOW(): the
/// benchmark defines it (the GPU's global timer, in ns) before it includes
/// the rewritten source; here it is 0.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cmath>
#include <cstdio>

#ifndef HPP_BENCH_NOW
#define HPP_BENCH_NOW() 0ull
#endif

using namespace hpp;

constexpr std::size_t ReduceGroupSize = 512;

struct alignas(16) Float4 {
  float x, y, z, w;
};

__device(hpp) inline float sum4(Float4 v) { return (v.x + v.y) + (v.z + v.w); }

/// Called before (Phase 0) and after (Phase 1) every run.
using RunHook = void (*)(int Run, int Phase);

/// Sums the first \p Count of region \p s's \p Size values into s[0]:
/// folded in half, with a barrier after every step (every work-item of the
/// work-group calls it).
__device(hpp) inline void foldRegion(Segment<float> s, std::size_t l,
                                     std::size_t Size) {
  std::size_t half = 1; // the largest power of two below Size
  while (half * 2 < Size)
    half *= 2;
  for (; half > 0; half /= 2) {
    if (l < half && l + half < Size)
      s[l] += s[l + half];
    s.barrier();
  }
}

/// \p Runs reductions of in[0..n) through a channel of \p Groups (at most
/// 1024) work-group sums; each stores its total in total[0].
void channelReduceRuns(Pointer<float> in, std::size_t n, Pointer<float> total,
                       std::size_t Groups, int Runs, RunHook Hook) {
  DistArray<float> partial;
  Region<float> sums = partial.allocRegion(ReduceGroupSize);
  DistArray<float> whole;
  Region<float> finals = whole.allocRegion(Groups);

  Channel<float> c(Groups);
  c.executeWith(
      [=](Channel<float> *c) -> bool __device(coord) {
        return c->size() >= Groups;
      },
      Range<1, 1>(Groups, Groups), whole,
      [=](Index<1, 1> i, Span<float> data, BoundDistArray<float> a)
          __device(hpp) {
        Segment<float> s = a(finals);
        std::size_t l = i.getLocalX();
        s[l] = l < data.size() ? data[l] : 0.0f;
        s.barrier();
        foldRegion(s, l, Groups);
        if (l == 0)
          total[0] = s[0];
      });

  for (int Run = 0; Run < Runs; ++Run) {
    Hook(Run, 0);
    parallelFor(
        Range<1, 1>(Groups * ReduceGroupSize, ReduceGroupSize), partial,
        [=, &c](Index<1, 1> i, BoundDistArray<float> a) __device(hpp) {
          Segment<float> s = a(sums);
          std::size_t item = i.getX(), items = i.getGlobalSizeX();
          std::size_t l = i.getLocalX();
          // Grid-stride over whole four-float vectors, four independent
          // loads per iteration; then the last n % 4 floats.
          const Float4 *in4 = reinterpret_cast<const Float4 *>(in.get());
          std::size_t vectors = n / 4;
          float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
          std::size_t v = item;
          for (; v + 3 * items < vectors; v += 4 * items) {
            a0 += sum4(in4[v]);
            a1 += sum4(in4[v + items]);
            a2 += sum4(in4[v + 2 * items]);
            a3 += sum4(in4[v + 3 * items]);
          }
          for (; v < vectors; v += items)
            a0 += sum4(in4[v]);
          for (std::size_t e = 4 * vectors + item; e < n; e += items)
            a1 += in[e];
          s[l] = (a0 + a1) + (a2 + a3);
          s.barrier();
          foldRegion(s, l, ReduceGroupSize);
          if (l == 0)
            c.write(s[0]);
        });
    Hook(Run, 1);
  }
}

/// \p Runs times: a one-warp launch writes the time into a channel whose
/// predicate holds at one value; the consumer stores the time from that
/// write to its start in Latency[run] (ns; 0 on the CPU). The writer
/// spins \p DelayNs before it writes.
void channelLatencyRuns(Pointer<unsigned long long> Latency,
                        Pointer<int> Next, int Runs, RunHook Hook,
                        unsigned long long DelayNs) {
  Channel<unsigned long long> c(1);
  c.executeWith(
      [=](Channel<unsigned long long> *c) -> bool __device(coord) {
        return c->size() >= 1;
      },
      Range<1, 1>(32, 32),
      [=](Index<1, 1> i, Span<unsigned long long> data) __device(hpp) {
        unsigned long long Now = HPP_BENCH_NOW();
        if (i.getLocalX() == 0 && data.size() == 1)
          Latency[atomicAdd(Next, 1)] = Now - data[0];
      });
  for (int Run = 0; Run < Runs; ++Run) {
    Hook(Run, 0);
    parallelFor(Range<1, 1>(32, 32), [=, &c](Index<1, 1> i) __device(hpp) {
      if (i.getX() == 0) {
        const unsigned long long Start = HPP_BENCH_NOW();
        while (Start != 0 && HPP_BENCH_NOW() - Start < DelayNs) {
        }
        c.write(HPP_BENCH_NOW());
      }
    });
    Hook(Run, 1);
  }
}

static void noHook(int, int) {}

int main() {
  const std::size_t n = 1000003, Groups = 37;
  Pointer<float> in = allocate<float>(n);
  double Want = 0;
  for (std::size_t k = 0; k != n; ++k) {
    in[k] = static_cast<float>(k % 11);
    Want += static_cast<double>(k % 11);
  }
  Pointer<float> total = allocate<float>(1);
  channelReduceRuns(in, n, total, Groups, 2, noHook);
  bool Ok = std::fabs(total[0] - Want) <= 1e-6 * Want;

  const int Runs = 5;
  Pointer<unsigned long long> Latency = allocate<unsigned long long>(Runs);
  Pointer<int> Next = allocate<int>(1);
  channelLatencyRuns(Latency, Next, Runs, noHook, 20000);
  Ok = Ok && Next[0] == Runs;

  std::printf("channel workloads sum=%.1f (expected %.1f) latency runs=%d "
              "%s\n",
              static_cast<double>(total[0]), Want, Next[0],
              Ok ? "verified" : "FAILED");
  deallocate(in);
  deallocate(total);
  deallocate(Latency);
  deallocate(Next);
  return Ok ? 0 : 1;
}
