//===- bench/bench_common.cuh - Input, L2 flush and timing for benchmarks -===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the CUDA benchmarks share: the pseudo-random input (the same on the
/// host and the device), the untimed L2 flush before every timed call, the
/// event timing around one call, and the median. Include it after the
/// runtime (it uses HPP_CHECK).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_BENCH_COMMON_CUH
#define HPP_BENCH_COMMON_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

/// The input value at index \p K: a 24-bit hash of K scaled into [0, 1),
/// exact in float (and the same on the host and the device).
__host__ __device__ inline float benchValue(std::uint64_t K) {
  std::uint32_t H = static_cast<std::uint32_t>(K) * 2654435761u;
  H ^= H >> 15;
  H *= 0x2c1b3c6du;
  H ^= H >> 12;
  return static_cast<float>(H >> 8) * (1.0f / 16777216.0f);
}

__global__ void benchFill(float *In, std::size_t N) {
  std::size_t Stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t K = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
       K < N; K += Stride)
    In[K] = benchValue(K);
}

static double benchMedian(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t M = V.size() / 2;
  return V.size() % 2 ? V[M] : 0.5 * (V[M - 1] + V[M]);
}

/// Reads \p N words so that the L2 cache holds only clean lines of them.
__global__ void benchFlush(const int4 *Scratch, std::size_t N, int *Sink) {
  std::size_t Stride = std::size_t(gridDim.x) * blockDim.x;
  int Acc = 0;
  for (std::size_t K = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
       K < N; K += Stride) {
    int4 V = Scratch[K];
    Acc ^= V.x ^ V.y ^ V.z ^ V.w;
  }
  if (Acc == 0x7fffffff)
    *Sink = Acc; // Never (the scratch is zero); keeps the loads.
}

/// The untimed step before every timed call: without it, a call that
/// follows the copy pays for writing back the copy's dirty L2 lines
/// (tens of MB), and the order of the versions would decide their speed.
struct L2Flush {
  int4 *Scratch = nullptr;
  int *Sink = nullptr;
  std::size_t Words = 0;
  int Groups = 0;

  explicit L2Flush(const cudaDeviceProp &Prop) {
    Words = 4 * std::size_t(Prop.l2CacheSize) / sizeof(int4);
    Groups = 4 * Prop.multiProcessorCount;
    HPP_CHECK(cudaMalloc(&Scratch, Words * sizeof(int4)));
    HPP_CHECK(cudaMemset(Scratch, 0, Words * sizeof(int4)));
    HPP_CHECK(cudaMalloc(&Sink, sizeof(int)));
  }
  ~L2Flush() {
    cudaFree(Scratch);
    cudaFree(Sink);
  }
  void operator()() const {
    benchFlush<<<Groups, 256>>>(Scratch, Words, Sink);
    HPP_CHECK(cudaGetLastError());
  }
};

/// Milliseconds between events recorded on the null stream around \p Call,
/// after \p Flush.
template <class F>
static double benchTimeMs(const L2Flush &Flush, cudaEvent_t Start,
                          cudaEvent_t Stop, F &&Call) {
  Flush();
  HPP_CHECK(cudaEventRecord(Start, 0));
  Call();
  HPP_CHECK(cudaEventRecord(Stop, 0));
  HPP_CHECK(cudaEventSynchronize(Stop));
  float Ms = 0;
  HPP_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
  return Ms;
}

/// Milliseconds of \p Call on the host clock, after \p Flush (waited for,
/// untimed). The call must wait for its own work: this times a blocking
/// call, or an asynchronous one followed by its synchronisation.
template <class F> static double benchHostMs(const L2Flush &Flush, F &&Call) {
  Flush();
  HPP_CHECK(cudaDeviceSynchronize());
  const auto A = std::chrono::steady_clock::now();
  Call();
  const auto B = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(B - A).count();
}

/// \p WarmUp untimed rounds, then \p Runs rounds of every version of
/// \p Versions, the first of a round rotating (so that the order decides
/// no ranking); `Time(V)` times one call of V, appended to `V.Ms`.
template <class VersionT, class TimeF>
static void benchInterleave(std::vector<VersionT> &Versions, int WarmUp,
                            int Runs, TimeF &&Time) {
  for (int R = 0; R < WarmUp; ++R)
    for (VersionT &V : Versions)
      Time(V);
  const std::size_t K = Versions.size();
  for (int R = 0; R < Runs; ++R)
    for (std::size_t Slot = 0; Slot < K; ++Slot) {
      VersionT &V = Versions[(R + Slot) % K];
      V.Ms.push_back(Time(V));
    }
}

#endif // HPP_BENCH_COMMON_CUH
