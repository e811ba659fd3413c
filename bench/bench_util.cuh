//===- bench/bench_util.cuh - What the raw-CUDA benchmarks share ----------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Shared by the benchmarks and probes that measure the device runtime
/// against raw CUDA (they share no code with the runtime itself):
///  - BENCH_CHECK(call): a CUDA runtime call that must succeed, else the
///    program stops with its file, line and error (exit status 2);
///  - median, medianDiff: medians of a run's samples, and of the paired
///    differences of two interleaved series;
///  - interleavedUs: several measured functions run once each per round,
///    in order, so that a drift of the host's speed reaches all alike.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_BENCH_BENCH_UTIL_CUH
#define HPP_BENCH_BENCH_UTIL_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define BENCH_CHECK(X)                                                         \
  do {                                                                         \
    cudaError_t E_ = (X);                                                      \
    if (E_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #X,          \
                   cudaGetErrorString(E_));                                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

/// The median of \p V (the upper one of an even count).
inline double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

/// The median over rounds of \p A - \p B (paired).
inline double medianDiff(const std::vector<double> &A,
                         const std::vector<double> &B) {
  std::vector<double> D;
  for (std::size_t I = 0; I < A.size(); ++I)
    D.push_back(A[I] - B[I]);
  return median(D);
}

/// \p Fs interleaved: 3 warm-ups each, then \p Runs rounds that run each
/// once, in order; the per-round host times, in us, one vector per
/// function.
inline std::vector<std::vector<double>>
interleavedUs(int Runs, const std::vector<std::function<void()>> &Fs) {
  for (int W = 0; W < 3; ++W)
    for (const auto &F : Fs)
      F();
  std::vector<std::vector<double>> T(Fs.size());
  for (int R = 0; R < Runs; ++R)
    for (std::size_t I = 0; I < Fs.size(); ++I) {
      const auto A = std::chrono::steady_clock::now();
      Fs[I]();
      const auto B = std::chrono::steady_clock::now();
      T[I].push_back(std::chrono::duration<double, std::micro>(B - A).count());
    }
  return T;
}

#endif // HPP_BENCH_BENCH_UTIL_CUH
