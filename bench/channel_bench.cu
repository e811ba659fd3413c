//===- bench/channel_bench.cu - Channel reduction vs CUB, consumer latency ===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Times, in one process, the workloads of bench/channel_workloads.cpp as
/// rewritten by hpp-rewrite (#included through HPP_GENERATED), each with
/// its anchor measured in the same run:
///  - the HPP paper's global reduction through a channel on n floats
///    (default 2^28, 1 GiB) against cub::DeviceReduce::Sum on the same
///    managed buffer. Each timed call is preceded by the untimed L2 flush;
///    events on the null stream around the call (the hpp version: around
///    its blocking parallelFor, which returns after the consumer it
///    triggered has finished). The channel's storage is allocated by the
///    first launch that writes it, so every hpp call runs three times:
///    the second run is timed with the events, the third on the host's
///    clock, from an idle device to the result on the host, against CUB's
///    call and a device synchronise timed the same way (parallelFor
///    returns with the result; CUB's call returns before it);
///  - "predicate true -> consumer running": the time from a channel write
///    that makes the coordinator hold to the start of the consumer's
///    launch, read from the GPU's global timer on both sides, against the
///    same gap between two raw kernels launched back to back on one stream,
///    between two raw kernels with a cudaStreamSynchronize between them (a
///    host that waits, then launches), and in a raw channel of one value
///    (the producer reserves with an atomic add, the consumer, back to
///    back behind it, re-checks the counter before it stamps: the issue's
///    anchor design); one of each after every hpp run, so that all see the
///    same clocks. Measured with the write
///    first thing in the producer (bound by the host's launch calls: the
///    producer has written before the consumer's launch reaches the GPU),
///    then after 20 us of work in the producer.
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        -DHPP_GENERATED='"/abs/path/gen/bench/channel_workloads.cu"' \
///        bench/channel_bench.cu -o channel_bench
///   ./channel_bench [n=268435456] [runs=20] [work-groups per SM=3]
///
/// The reduction's producer has 3 work-groups of 512 per SM by default:
/// on an H200, 2 per SM gave 0.940-0.951x CUB, 3 per SM 0.961-0.966x
/// (docs/benchmarks.md).
///
/// Prints medians and ratios; exit status 0 only when the sums are within
/// 1e-5 of a double sum and every consumer ran.
///
//===----------------------------------------------------------------------===//

#include <cub/cub.cuh>

#ifndef HPP_GENERATED
#error "define HPP_GENERATED as the path of the rewritten channel_workloads source"
#endif

/// The GPU's global timer (ns); 0 on the host.
__host__ __device__ inline unsigned long long hppBenchNow() {
#ifdef __CUDA_ARCH__
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
#else
  return 0;
#endif
}
#define HPP_BENCH_NOW() hppBenchNow()

#define main hpp_generated_main
#include HPP_GENERATED
#undef main

#include "bench_common.cuh"

#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

/// Anchor kernels: the first stores the time (after spinning \p DelayNs),
/// the second the gap since.
__global__ void rawStamp(unsigned long long *T, unsigned long long DelayNs) {
  if (threadIdx.x == 0) {
    const unsigned long long Start = hppBenchNow();
    while (hppBenchNow() - Start < DelayNs) {
    }
    T[0] = hppBenchNow();
  }
}
__global__ void rawGap(const unsigned long long *T, unsigned long long *Gap) {
  const unsigned long long Now = hppBenchNow();
  if (threadIdx.x == 0)
    Gap[0] = Now - T[0];
}
/// The issue's anchor design in raw CUDA, a channel of one value: the
/// producer reserves a slot with an atomic add and stores the time there;
/// the consumer, launched behind it in stream order, re-checks the
/// predicate (the counter has reached \p Expected) before it stamps. A
/// consumer that finds it false stores ~0 (counted as a failure).
__global__ void rawChannelWrite(unsigned long long *Counter,
                                unsigned long long *Value,
                                unsigned long long DelayNs) {
  if (threadIdx.x == 0) {
    const unsigned long long Start = hppBenchNow();
    while (hppBenchNow() - Start < DelayNs) {
    }
    const unsigned long long Now = hppBenchNow();
    Value[atomicAdd(Counter, 1ull) & 1] = Now;
  }
}
__global__ void rawChannelCheck(const unsigned long long *Counter,
                                const unsigned long long *Value,
                                unsigned long long Expected,
                                unsigned long long *Gap) {
  const unsigned long long Seen =
      *static_cast<const volatile unsigned long long *>(Counter);
  if (Seen < Expected) {
    if (threadIdx.x == 0)
      Gap[0] = ~0ull;
    return;
  }
  const unsigned long long Now = hppBenchNow();
  if (threadIdx.x == 0)
    Gap[0] = Now - Value[(Expected - 1) & 1];
}

/// What the workloads' hook measures: run EventRun with events, run
/// HostRun with the host's clock.
struct HookState {
  const L2Flush *Flush = nullptr;
  cudaEvent_t Start, Stop;
  int EventRun = 1, HostRun = 2;
  double Ms = 0, HostMs = 0;
  std::chrono::steady_clock::time_point HostStart;
};
static HookState Hooked;

static void timingHook(int Run, int Phase) {
  if (Run == Hooked.HostRun) {
    if (Phase == 0) {
      (*Hooked.Flush)();
      HPP_CHECK(cudaDeviceSynchronize());
      Hooked.HostStart = std::chrono::steady_clock::now();
    } else {
      Hooked.HostMs = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - Hooked.HostStart)
                          .count();
    }
    return;
  }
  if (Run != Hooked.EventRun)
    return;
  if (Phase == 0) {
    (*Hooked.Flush)();
    HPP_CHECK(cudaEventRecord(Hooked.Start, 0));
    return;
  }
  HPP_CHECK(cudaEventRecord(Hooked.Stop, 0));
  HPP_CHECK(cudaEventSynchronize(Hooked.Stop));
  float Ms = 0;
  HPP_CHECK(cudaEventElapsedTime(&Ms, Hooked.Start, Hooked.Stop));
  Hooked.Ms = Ms;
}

/// \p Call timed on the host's clock, from an idle device with a flushed
/// L2 to its result on the host (the call, then a device synchronise).
template <class F> static double hostTimeMs(const L2Flush &Flush, F &&Call) {
  Flush();
  HPP_CHECK(cudaDeviceSynchronize());
  const auto T0 = std::chrono::steady_clock::now();
  Call();
  HPP_CHECK(cudaDeviceSynchronize());
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T0)
      .count();
}

/// The raw latency anchors, measured by rawLatencyHook after each hpp
/// latency run: Gap[run] back to back, Gap[Runs + run] after a stream
/// synchronise, Gap[2 Runs + run] the raw channel pair (back to back, the
/// consumer re-checking the predicate).
struct RawLatencyState {
  unsigned long long *Stamp = nullptr, *Gap = nullptr;
  /// The raw channel's counter and values (device memory).
  unsigned long long *Counter = nullptr, *Values = nullptr;
  unsigned long long Writes = 0;
  int Runs = 0;
  unsigned long long DelayNs = 0;
};
static RawLatencyState RawLatency;

static void rawLatencyHook(int Run, int Phase) {
  if (Phase == 0)
    return;
  unsigned long long *Stamp = RawLatency.Stamp;
  rawStamp<<<1, 32>>>(Stamp, RawLatency.DelayNs);
  rawGap<<<1, 32>>>(Stamp, RawLatency.Gap + Run);
  HPP_CHECK(cudaGetLastError());
  HPP_CHECK(cudaDeviceSynchronize());
  rawStamp<<<1, 32>>>(Stamp, RawLatency.DelayNs);
  HPP_CHECK(cudaStreamSynchronize(0));
  rawGap<<<1, 32>>>(Stamp, RawLatency.Gap + RawLatency.Runs + Run);
  HPP_CHECK(cudaGetLastError());
  HPP_CHECK(cudaDeviceSynchronize());
  rawChannelWrite<<<1, 32>>>(RawLatency.Counter, RawLatency.Values,
                             RawLatency.DelayNs);
  rawChannelCheck<<<1, 32>>>(RawLatency.Counter, RawLatency.Values,
                             ++RawLatency.Writes,
                             RawLatency.Gap + 2 * RawLatency.Runs + Run);
  HPP_CHECK(cudaGetLastError());
  HPP_CHECK(cudaDeviceSynchronize());
}

static double medianOf(const unsigned long long *V, int From, int To) {
  std::vector<double> D;
  for (int K = From; K < To; ++K)
    D.push_back(double(V[K]));
  return benchMedian(D);
}

int main(int argc, char **argv) {
  const long long Requested = argc > 1 ? std::atoll(argv[1]) : (1LL << 28);
  const int Runs = argc > 2 ? std::atoi(argv[2]) : 20;
  const int GroupsPerSm = argc > 3 ? std::atoi(argv[3]) : 3;
  const int WarmUp = 3;
  if (Requested <= 0 || Requested > 0x7fffffffLL || Runs <= 0 ||
      GroupsPerSm <= 0) {
    std::fprintf(stderr,
                 "usage: %s [0 < n < 2^31] [runs > 0] [work-groups per SM "
                 "> 0]\n",
                 argv[0]);
    return 2;
  }
  const std::size_t N = static_cast<std::size_t>(Requested);
  try {
    int Dev = 0;
    cudaDeviceProp Prop;
    HPP_CHECK(cudaGetDevice(&Dev));
    HPP_CHECK(cudaGetDeviceProperties(&Prop, Dev));
    const std::size_t Groups = std::min<std::size_t>(
        1024, std::size_t(GroupsPerSm) * std::size_t(Prop.multiProcessorCount));
    std::printf("device: %s (%d SMs), n = %zu floats, channel of %zu "
                "work-group sums, %d timed runs after %d warm-up\n",
                Prop.name, Prop.multiProcessorCount, N, Groups, Runs, WarmUp);

    // --- The paper's channel reduction against CUB.
    hpp::Pointer<float> In = hpp::allocate<float>(N);
    hpp::Pointer<float> Total = hpp::allocate<float>(1);
    float *CubOut = nullptr;
    HPP_CHECK(cudaMalloc(&CubOut, sizeof(float)));
    benchFill<<<4 * Prop.multiProcessorCount, 256>>>(In.get(), N);
    HPP_CHECK(cudaGetLastError());
    HPP_CHECK(cudaDeviceSynchronize());
    std::size_t TempBytes = 0;
    HPP_CHECK(cub::DeviceReduce::Sum(nullptr, TempBytes, In.get(), CubOut,
                                     static_cast<int>(N)));
    void *Temp = nullptr;
    HPP_CHECK(cudaMalloc(&Temp, TempBytes));

    const L2Flush Flush(Prop);
    cudaEvent_t Start, Stop;
    HPP_CHECK(cudaEventCreate(&Start));
    HPP_CHECK(cudaEventCreate(&Stop));
    Hooked.Flush = &Flush;
    HPP_CHECK(cudaEventCreate(&Hooked.Start));
    HPP_CHECK(cudaEventCreate(&Hooked.Stop));

    auto Cub = [&] {
      HPP_CHECK(cub::DeviceReduce::Sum(Temp, TempBytes, In.get(), CubOut,
                                       static_cast<int>(N)));
    };
    std::vector<double> CubMs, HppMs, CubHostMs, HppHostMs;
    for (int R = 0; R < WarmUp + Runs; ++R) {
      // Alternate which one goes first.
      for (int Slot = 0; Slot < 2; ++Slot) {
        if ((R + Slot) % 2 == 0) {
          const double Ms = benchTimeMs(Flush, Start, Stop, Cub);
          const double HostMs = hostTimeMs(Flush, Cub);
          if (R >= WarmUp) {
            CubMs.push_back(Ms);
            CubHostMs.push_back(HostMs);
          }
        } else {
          channelReduceRuns(In, N, Total, Groups, 3, timingHook);
          if (R >= WarmUp) {
            HppMs.push_back(Hooked.Ms);
            HppHostMs.push_back(Hooked.HostMs);
          }
        }
      }
    }
    float CubSum = 0;
    HPP_CHECK(
        cudaMemcpy(&CubSum, CubOut, sizeof(float), cudaMemcpyDeviceToHost));
    const float HppSum = Total[0];
    double Reference = 0;
    for (std::size_t K = 0; K < N; ++K)
      Reference += benchValue(K);
    const double CubErr = std::fabs(CubSum - Reference) / Reference;
    const double HppErr = std::fabs(HppSum - Reference) / Reference;
    bool Ok = CubErr < 1e-5 && HppErr < 1e-5;
    const double CubMed = benchMedian(CubMs), HppMed = benchMedian(HppMs);
    std::printf("reduction: cub::DeviceReduce::Sum median %.4f ms; hpp "
                "channel reduction (rewritten) median %.4f ms; ratio to CUB "
                "%.4f (> 1: faster)\n",
                CubMed, HppMed, CubMed / HppMed);
    const double CubHost = benchMedian(CubHostMs),
                 HppHost = benchMedian(HppHostMs);
    std::printf("reduction, host clock to the result (the call, then a "
                "device synchronise, from an idle device): cub median %.4f "
                "ms; hpp median %.4f ms; ratio to CUB %.4f (> 1: faster)\n",
                CubHost, HppHost, CubHost / HppHost);
    std::printf("sums: reference %.10g, cub %.10g (relative error %.3g), hpp "
                "%.10g (%.3g): %s\n",
                Reference, double(CubSum), CubErr, double(HppSum), HppErr,
                CubErr < 1e-5 && HppErr < 1e-5 ? "OK" : "MISMATCH");

    // --- Predicate -> consumer latency, and its anchors, interleaved: after
    // each hpp run, one of each raw pair (the same clocks and conditions).
    const int LatRuns = WarmUp + 10 * Runs;
    hpp::Pointer<unsigned long long> Latency =
        hpp::allocate<unsigned long long>(LatRuns);
    hpp::Pointer<int> Next = hpp::allocate<int>(1);
    unsigned long long *Gap = nullptr;
    HPP_CHECK(cudaMalloc(&RawLatency.Stamp, sizeof(unsigned long long)));
    HPP_CHECK(cudaMallocHost(&Gap, 3 * LatRuns * sizeof(unsigned long long)));
    HPP_CHECK(cudaMalloc(&RawLatency.Counter, sizeof(unsigned long long)));
    HPP_CHECK(cudaMemset(RawLatency.Counter, 0, sizeof(unsigned long long)));
    HPP_CHECK(cudaMalloc(&RawLatency.Values, 2 * sizeof(unsigned long long)));
    RawLatency.Gap = Gap;
    RawLatency.Runs = LatRuns;
    // Twice: the write first thing in the producer, then after 20 us of
    // work in it (the raw first kernel spins as long).
    for (const unsigned long long DelayNs : {0ull, 20000ull}) {
      Next[0] = 0;
      RawLatency.DelayNs = DelayNs;
      channelLatencyRuns(Latency, Next, LatRuns, rawLatencyHook, DelayNs);
      if (Next[0] != LatRuns) {
        std::printf("latency: %d consumers ran, expected %d\n", Next[0],
                    LatRuns);
        Ok = false;
      }
      for (int K = 0; K < LatRuns; ++K)
        if (Gap[2 * LatRuns + K] == ~0ull) {
          std::printf("latency: the raw channel consumer found its "
                      "predicate false in run %d\n",
                      K);
          Ok = false;
        }
      std::printf("latency, write after %llu ns (median of %d, ns): hpp "
                  "write -> consumer running %.0f; raw channel pair "
                  "(consumer re-checks the counter) %.0f; raw back-to-back "
                  "launches on one stream %.0f; raw launch after a stream "
                  "synchronise %.0f\n",
                  DelayNs, LatRuns - WarmUp,
                  medianOf(Latency.get(), WarmUp, LatRuns),
                  medianOf(Gap + 2 * LatRuns, WarmUp, LatRuns),
                  medianOf(Gap, WarmUp, LatRuns),
                  medianOf(Gap + LatRuns, WarmUp, LatRuns));
    }

    HPP_CHECK(cudaFreeHost(Gap));
    HPP_CHECK(cudaFree(RawLatency.Stamp));
    HPP_CHECK(cudaFree(RawLatency.Counter));
    HPP_CHECK(cudaFree(RawLatency.Values));
    HPP_CHECK(cudaFree(Temp));
    HPP_CHECK(cudaFree(CubOut));
    HPP_CHECK(cudaEventDestroy(Start));
    HPP_CHECK(cudaEventDestroy(Stop));
    hpp::deallocate(Latency);
    hpp::deallocate(Next);
    hpp::deallocate(Total);
    hpp::deallocate(In);
    return Ok ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
