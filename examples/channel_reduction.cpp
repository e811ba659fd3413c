//===- examples/channel_reduction.cpp - Global reduction through a channel ===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The HPP paper's global reduction through a channel. A parallelFor over
/// n inputs writes each input into a `Channel<int>`; a coordinator
/// predicate watches the channel, and every time channelSize values are
/// waiting it launches the consumer over one work-group of channelSize
/// work-items with those values:
///
///   c.executeWith(
///       [=](Channel<int>* c) -> bool __device(coord) {
///         return c->size() >= channelSize; },
///       Range<1, 1>(channelSize, channelSize), darray,
///       [=](Index<1, 1> i, std::vector<int> data, BoundDistArray<int> a)
///           __device(hpp) { ... });
///
/// The consumer reduces its batch in the work-group's memory: a DistArray
/// with two regions, one for the sum and one for the maximum, folded in
/// half with s.barrier() between the steps; work-item 0 then adds the
/// batch's sum to a global total and its maximum into a global maximum
/// with atomics. The values of a batch come in no particular order, which
/// neither a sum of integers nor a maximum notices. The parallelFor
/// returns after every consumer its writes triggered has finished, so the
/// totals are complete when it returns; they are compared with plain C++.
///
/// Usage: channel_reduction [n [channelSize]]   (defaults 16384 and 128;
/// n must be a multiple of channelSize, which is at most 1024)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace hpp;

/// Input k of n.
static int inputAt(std::size_t k) {
  return static_cast<int>(k * 7919 % 2003) - 1000;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 16384;
  long Size = argc > 2 ? std::atol(argv[2]) : 128;
  if (argc > 3 || N <= 0 || Size <= 0 || Size > 1024 || N % Size != 0) {
    std::fprintf(stderr, "usage: channel_reduction [n [channelSize]]   (n a "
                         "multiple of channelSize, channelSize <= 1024)\n");
    return 2;
  }
  std::size_t n = static_cast<std::size_t>(N);
  std::size_t channelSize = static_cast<std::size_t>(Size);

  Pointer<int> input = allocate<int>(n);
  for (std::size_t k = 0; k != n; ++k)
    input[k] = inputAt(k);
  // total, maximum, consumer batches, batches of the wrong size.
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
      [=](Index<1, 1> i, std::vector<int> data, BoundDistArray<int> a)
          __device(hpp) {
        Segment<int> s = a(sums);
        Segment<int> m = a(maxima);
        std::size_t l = i.getLocalX(), g = s.getRegionSize();
        if (l == 0 && data.size() != g)
          atomicAdd(wrongSize, 1);
        int v = l < data.size() ? data[l] : 0;
        s[l] = v;
        m[l] = l < data.size() ? v : INT_MIN;
        s.barrier(); // every value of the batch is in the regions
        std::size_t half = 1; // the largest power of two below g
        while (half * 2 < g)
          half *= 2;
        for (; half > 0; half /= 2) {
          if (l < half && l + half < g) {
            s[l] += s[l + half];
            m[l] = m[l] < m[l + half] ? m[l + half] : m[l];
          }
          s.barrier(); // this step's results are in the regions
        }
        if (l == 0) {
          atomicAdd(total, s[0]);
          atomicMax(maximum, m[0]);
          atomicAdd(batches, 1);
        }
      });

  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    c.write(input[i]);
  });
  // Every consumer the writes triggered has finished.

  long long WantTotal = 0;
  int WantMax = INT_MIN;
  for (std::size_t k = 0; k != n; ++k) {
    WantTotal += inputAt(k);
    WantMax = std::max(WantMax, inputAt(k));
  }
  std::size_t WantBatches = n / channelSize;
  bool Ok = total[0] == WantTotal && maximum[0] == WantMax &&
            batches[0] == static_cast<int>(WantBatches) && wrongSize[0] == 0;
  if (Ok)
    std::printf("channel-reduction n=%zu channelSize=%zu batches=%d "
                "total=%d max=%d verified\n",
                n, channelSize, batches[0], total[0], maximum[0]);
  else
    std::printf("channel-reduction n=%zu channelSize=%zu MISMATCH: "
                "batches=%d (expected %zu, %d of the wrong size) total=%d "
                "(expected %lld) max=%d (expected %d)\n",
                n, channelSize, batches[0], WantBatches, wrongSize[0],
                total[0], WantTotal, maximum[0], WantMax);

  deallocate(input);
  deallocate(total);
  deallocate(maximum);
  deallocate(batches);
  deallocate(wrongSize);
  return Ok ? 0 : 1;
}
