//===- bench/step_timing.h - Interleaved timing of barrier steps ----------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What bench/barrier_bench.cu and bench/grid_sync_bench.cu share: time
/// every version of a step loop in interleaved rounds (the order rotates,
/// so no version always runs after the same one) after warm-ups, and print
/// each version's median microseconds per step and its ratio to the anchor.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_BENCH_STEP_TIMING_H
#define HPP_BENCH_STEP_TIMING_H

#include <algorithm>
#include <cstdio>
#include <vector>

namespace bench {

/// Milliseconds of \p Runs timed calls of \p Time(Kind) per kind, for
/// \p Kinds kinds, after 3 untimed rounds.
template <class TimeFn>
std::vector<std::vector<double>> timeInterleaved(int Kinds, int Runs,
                                                 TimeFn Time) {
  for (int W = 0; W < 3; ++W)
    for (int K = 0; K < Kinds; ++K)
      Time(K);
  std::vector<std::vector<double>> Ms(Kinds);
  for (int R = 0; R < Runs; ++R)
    for (int Slot = 0; Slot < Kinds; ++Slot) {
      const int K = (R + Slot) % Kinds;
      Ms[K].push_back(Time(K));
    }
  return Ms;
}

inline double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

/// Prints each kind's median per step of \p Steps and its ratio to kind
/// \p Anchor (named \p AnchorName).
inline void printSteps(const std::vector<std::vector<double>> &Ms,
                       const char *const *Names, int Anchor,
                       const char *AnchorName, int Steps) {
  const double AnchorUs = median(Ms[Anchor]) * 1e3 / Steps;
  for (std::size_t K = 0; K < Ms.size(); ++K) {
    const double Us = median(Ms[K]) * 1e3 / Steps;
    std::printf("%s: %.4f us/step, ratio to %s %.3f\n", Names[K], Us,
                AnchorName, Us / AnchorUs);
  }
}

} // namespace bench

#endif // HPP_BENCH_STEP_TIMING_H
