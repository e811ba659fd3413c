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

#include <hpp/runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace bench {

/// `steps` and `runs` from the command line (defaults 10,000 and 20);
/// false after printing the usage when they are not positive.
inline bool parseStepsRuns(int argc, char **argv, int &Steps, int &Runs) {
  Steps = argc > 1 ? std::atoi(argv[1]) : 10000;
  Runs = argc > 2 ? std::atoi(argv[2]) : 20;
  if (Steps > 0 && Runs > 0)
    return true;
  std::fprintf(stderr, "usage: %s [steps>0] [runs>0]\n", argv[0]);
  return false;
}

/// The report's first line: the device and the sizes.
inline void printSetup(unsigned Items, unsigned Group, int Steps,
                       const char *Barriers, int Runs) {
  cudaDeviceProp Prop;
  HPP_CHECK(cudaGetDeviceProperties(&Prop, 0));
  std::printf("device: %s (%d SMs), %u work-items in groups of %u, %d "
              "steps of 2 %s, %d timed runs each\n",
              Prop.name, Prop.multiProcessorCount, Items, Group, Steps,
              Barriers, Runs);
}

/// Milliseconds \p Work takes on the GPU, between two events on the null
/// stream.
class EventTimer {
public:
  EventTimer() {
    HPP_CHECK(cudaEventCreate(&Start));
    HPP_CHECK(cudaEventCreate(&Stop));
  }
  ~EventTimer() {
    (void)cudaEventDestroy(Start);
    (void)cudaEventDestroy(Stop);
  }
  template <class WorkFn> double operator()(WorkFn Work) {
    HPP_CHECK(cudaEventRecord(Start));
    Work();
    HPP_CHECK(cudaEventRecord(Stop));
    HPP_CHECK(cudaEventSynchronize(Stop));
    float Ms = 0;
    HPP_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
    return double(Ms);
  }

private:
  cudaEvent_t Start, Stop;
};

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
