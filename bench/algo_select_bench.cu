//===- bench/algo_select_bench.cu - hpp::select vs cub::DeviceSelect::If --===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Times, in one process, the stream compaction of 2^28 pseudo-random
/// floats in [0, 1) (1 GiB, default; bench_common.cuh's input) with the
/// predicate x < 0.5f (about half kept):
///  - cub::DeviceSelect::If (the anchor), on the null stream;
///  - hpp::detail::gpu::selectAsync (runtime/hpp/backend/gpu_select.h), the
///    stream-ordered piece of hpp::select, on the same stream, with its
///    scratch memory allocated once;
///  - cudaMemcpyAsync device-to-device of the input (what the memory
///    system delivers to a plain copy: it reads and writes 2 * n * 4
///    bytes);
/// each between two cudaEvents; and on the host clock (steady_clock):
///  - hpp::select, the blocking call (prefetch, scratch, kernels, copy of
///    the count, wait);
///  - CUB followed by cudaStreamSynchronize.
/// Every round runs each version once, in a rotating order, each after an
/// untimed read of four times the L2 size (bench_common.cuh), after 3
/// warm-up rounds. Prints the medians, GB/s (bytes = n * 4 read + kept * 4
/// written), the ratio to CUB (> 1: faster) and the fraction of the copy's
/// bandwidth.
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        bench/algo_select_bench.cu -o algo_select_bench
///   ./algo_select_bench [n=268435456] [runs=25]
///   ./algo_select_bench --check
///
/// Exit status 1 when hpp's output or count differs from refSelect
/// (hpp/core/algorithms.h); CUB's agreement is printed, not judged.
/// --check times nothing: it runs hpp::select on many sizes, element types
/// and predicates and compares each result bit for bit with refSelect,
/// including that nothing past the count was written; one line per
/// failure, then `check: N cases, M failed`.
///
//===----------------------------------------------------------------------===//

#include <hpp/runtime.h>

#include <cub/cub.cuh>

#include "bench_common.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

/// The benchmark's predicate.
struct LessHalf {
  __host__ __device__ bool operator()(const float &X) const { return X < 0.5f; }
};

/// The predicates of --check.
enum class Keep { None, All, Even, Below };
const char *keepName(Keep K) {
  switch (K) {
  case Keep::None:
    return "none";
  case Keep::All:
    return "all";
  case Keep::Even:
    return "alternating";
  default:
    return "below";
  }
}

template <class T> struct CheckPred {
  Keep K;
  T Threshold;
  __host__ __device__ bool operator()(const T &X) const {
    switch (K) {
    case Keep::None:
      return false;
    case Keep::All:
      return true;
    case Keep::Even:
      return (static_cast<long long>(X) & 1) == 0;
    default:
      return X < Threshold;
    }
  }
};

std::uint32_t hash32(std::uint64_t K) {
  std::uint32_t H = static_cast<std::uint32_t>(K ^ (K >> 32)) * 2654435761u;
  H ^= H >> 15;
  H *= 0x2c1b3c6du;
  H ^= H >> 12;
  H *= 0x297a2d39u;
  H ^= H >> 15;
  return H;
}

/// The sizes of --check.
std::vector<std::size_t> checkSizes() {
  return {0,
          1,
          31,
          32,
          33,
          255,
          256,
          257,
          4095,
          4097,
          65537,
          1000003,
          (std::size_t(1) << 24) + 5};
}

/// One type's cases: the input in order (x = i mod 2^24, exact in every
/// type: none, all, alternating kept) and pseudo-random (x = a 16-bit hash;
/// half kept, about 1 in 1000 kept; floating point with a NaN every 97th).
template <class T>
void checkType(const char *TypeName, int &Cases, int &Failed) {
  const std::vector<std::size_t> Sizes = checkSizes();
  const std::size_t Max = Sizes.back();
  hpp::Pointer<T> In = hpp::allocate<T>(Max);
  hpp::Pointer<T> Out = hpp::allocate<T>(Max + 1);
  std::vector<T> Ref(Max + 1);
  T Sentinel;
  std::memset(&Sentinel, 0x5a, sizeof(T));
  for (int Pattern = 0; Pattern < 2; ++Pattern) {
    for (std::size_t I = 0; I < Max; ++I) {
      if (Pattern == 0) {
        In[I] = static_cast<T>(I & 0xffffff);
      } else {
        In[I] = static_cast<T>(hash32(I) & 0xffff);
        if constexpr (std::is_floating_point<T>::value)
          if (I % 97 == 13)
            In[I] = std::numeric_limits<T>::quiet_NaN();
      }
    }
    std::vector<CheckPred<T>> Preds;
    if (Pattern == 0)
      Preds = {{Keep::None, T(0)}, {Keep::All, T(0)}, {Keep::Even, T(0)}};
    else
      Preds = {{Keep::Below, T(32768)}, {Keep::Below, T(64)}};
    for (const CheckPred<T> &P : Preds)
      for (std::size_t N : Sizes) {
        ++Cases;
        // Sentinels up to two tiles past n: what a wrong tile would write.
        const std::size_t Limit = std::min(Max + 1, N + 8192);
        for (std::size_t I = 0; I < Limit; ++I)
          Out[I] = Sentinel;
        std::size_t Got = 0;
        std::string Error;
        try {
          Got = hpp::select(hpp::Pointer<T>(In.get(), N),
                            hpp::Pointer<T>(Out.get(), Max), N, P);
        } catch (const hpp::RuntimeError &E) {
          Error = E.what();
        }
        const std::size_t Want =
            hpp::detail::refSelect(In.get(), Ref.data(), N, P);
        std::string Why;
        if (!Error.empty())
          Why = "threw: " + Error;
        else if (Got != Want)
          Why =
              "count " + std::to_string(Got) + ", want " + std::to_string(Want);
        else if (std::memcmp(Out.get(), Ref.data(), Want * sizeof(T)))
          for (std::size_t I = 0; I < Want; ++I)
            if (std::memcmp(&Out[I], &Ref[I], sizeof(T))) {
              Why = "first difference at out[" + std::to_string(I) + "]";
              break;
            }
        if (Why.empty())
          for (std::size_t I = Want; I < Limit; ++I)
            if (std::memcmp(&Out[I], &Sentinel, sizeof(T))) {
              Why = "out[" + std::to_string(I) + "] written past the count";
              break;
            }
        if (!Why.empty()) {
          ++Failed;
          std::printf(
              "FAIL select<%s> n=%zu pred=%s%s: %s\n", TypeName, N,
              keepName(P.K),
              P.K == Keep::Below
                  ? (" " + std::to_string((long long)P.Threshold)).c_str()
                  : "",
              Why.c_str());
        }
      }
  }
  hpp::deallocate(Out);
  hpp::deallocate(In);
}

int runCheck() {
  int Cases = 0, Failed = 0;
  checkType<float>("float", Cases, Failed);
  checkType<double>("double", Cases, Failed);
  checkType<int>("int", Cases, Failed);
  checkType<unsigned>("unsigned", Cases, Failed);
  checkType<long long>("long long", Cases, Failed);
  // selectAsync on plain device memory, with a count in device memory.
  {
    ++Cases;
    const std::size_t N = 1000003;
    std::vector<float> Host(N), Ref(N);
    for (std::size_t I = 0; I < N; ++I)
      Host[I] = benchValue(I);
    float *In = nullptr, *Out = nullptr;
    std::size_t *Count = nullptr;
    void *Scratch = nullptr;
    HPP_CHECK(cudaMalloc(&In, N * sizeof(float)));
    HPP_CHECK(cudaMalloc(&Out, N * sizeof(float)));
    HPP_CHECK(cudaMalloc(&Count, sizeof(std::size_t)));
    HPP_CHECK(
        cudaMalloc(&Scratch, hpp::detail::gpu::selectScratchBytes<float>(N)));
    HPP_CHECK(
        cudaMemcpy(In, Host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t S;
    HPP_CHECK(cudaStreamCreate(&S));
    hpp::detail::gpu::selectAsync(S, In, Out, N, LessHalf(), Count, Scratch);
    std::size_t Got = 0;
    HPP_CHECK(
        cudaMemcpyAsync(&Got, Count, sizeof(Got), cudaMemcpyDeviceToHost, S));
    HPP_CHECK(cudaStreamSynchronize(S));
    std::vector<float> Res(N);
    HPP_CHECK(
        cudaMemcpy(Res.data(), Out, N * sizeof(float), cudaMemcpyDeviceToHost));
    const std::size_t Want =
        hpp::detail::refSelect(Host.data(), Ref.data(), N, LessHalf());
    if (Got != Want || std::memcmp(Res.data(), Ref.data(), Want * 4)) {
      ++Failed;
      std::printf("FAIL selectAsync<float> n=%zu on a stream: count %zu, "
                  "want %zu%s\n",
                  N, Got, Want, Got == Want ? ", elements differ" : "");
    }
    HPP_CHECK(cudaStreamDestroy(S));
    HPP_CHECK(cudaFree(Scratch));
    HPP_CHECK(cudaFree(Count));
    HPP_CHECK(cudaFree(Out));
    HPP_CHECK(cudaFree(In));
  }
  std::printf("check: %d cases, %d failed\n", Cases, Failed);
  return Failed ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "--check")) {
    try {
      return runCheck();
    } catch (const hpp::RuntimeError &E) {
      std::fprintf(stderr, "RuntimeError: %s\n", E.what());
      return 1;
    }
  }
  const long long Requested = argc > 1 ? std::atoll(argv[1]) : (1LL << 28);
  const int Runs = argc > 2 ? std::atoi(argv[2]) : 25;
  const int WarmUp = 3;
  if (Requested <= 0 || Requested > (1LL << 32) || Runs <= 0) {
    std::fprintf(stderr, "usage: %s [0 < n <= 2^32] [runs > 0] | --check\n",
                 argv[0]);
    return 2;
  }
  const std::size_t N = static_cast<std::size_t>(Requested);
  const double InBytes = double(N) * sizeof(float);
  try {
    int Dev = 0;
    cudaDeviceProp Prop;
    HPP_CHECK(cudaGetDevice(&Dev));
    HPP_CHECK(cudaGetDeviceProperties(&Prop, Dev));
    std::printf("device: %s (%d SMs), n = %zu floats (%.0f MiB), x < 0.5f, "
                "%d timed runs each after %d warm-up\n",
                Prop.name, Prop.multiProcessorCount, N, InBytes / (1 << 20),
                Runs, WarmUp);

    hpp::Pointer<float> In = hpp::allocate<float>(N);
    hpp::Pointer<float> Out = hpp::allocate<float>(N);
    float *CubOut = nullptr, *CopyDst = nullptr;
    long long *CubCount = nullptr;
    std::size_t *HppCount = nullptr;
    HPP_CHECK(cudaMalloc(&CubOut, N * sizeof(float)));
    HPP_CHECK(cudaMalloc(&CopyDst, N * sizeof(float)));
    HPP_CHECK(cudaMalloc(&CubCount, sizeof(long long)));
    HPP_CHECK(cudaMalloc(&HppCount, sizeof(std::size_t)));
    benchFill<<<4 * Prop.multiProcessorCount, 256>>>(In.get(), N);
    HPP_CHECK(cudaGetLastError());
    HPP_CHECK(cudaDeviceSynchronize());
    // Resident on the device before anything is timed (hpp::select would
    // prefetch them once, at its first call).
    hpp::detail::prefetchPointers(std::make_tuple(In, Out));
    HPP_CHECK(cudaDeviceSynchronize());

    std::size_t CubTempBytes = 0;
    HPP_CHECK(cub::DeviceSelect::If(nullptr, CubTempBytes, In.get(), CubOut,
                                    CubCount, (long long)N, LessHalf()));
    void *CubTemp = nullptr, *HppScratch = nullptr;
    HPP_CHECK(cudaMalloc(&CubTemp, CubTempBytes));
    HPP_CHECK(cudaMalloc(&HppScratch,
                         hpp::detail::gpu::selectScratchBytes<float>(N)));

    auto Cub = [&] {
      HPP_CHECK(cub::DeviceSelect::If(CubTemp, CubTempBytes, In.get(), CubOut,
                                      CubCount, (long long)N, LessHalf()));
    };
    auto HppAsync = [&] {
      hpp::detail::gpu::selectAsync(cudaStream_t(0), In.get(), Out.get(), N,
                                    LessHalf(), HppCount, HppScratch);
    };
    auto Copy = [&] {
      HPP_CHECK(cudaMemcpyAsync(CopyDst, In.get(), N * sizeof(float),
                                cudaMemcpyDeviceToDevice, 0));
    };
    std::size_t BlockingKept = 0;
    auto HppBlocking = [&] {
      BlockingKept = hpp::select(In, Out, N, LessHalf());
    };
    auto CubSync = [&] {
      Cub();
      HPP_CHECK(cudaStreamSynchronize(0));
    };

    struct Version {
      const char *Name;
      std::function<void()> Call;
      bool Host; // Timed on the host clock.
      bool IsCopy;
      std::vector<double> Ms;
    };
    std::vector<Version> Versions = {
        {"cub::DeviceSelect::If         ", Cub, false, false, {}},
        {"hpp selectAsync               ", HppAsync, false, false, {}},
        {"cudaMemcpyAsync D2D           ", Copy, false, true, {}},
        {"cub + cudaStreamSynchronize   ", CubSync, true, false, {}},
        {"hpp::select (blocking)        ", HppBlocking, true, false, {}}};

    const L2Flush Flush(Prop);
    cudaEvent_t Start, Stop;
    HPP_CHECK(cudaEventCreate(&Start));
    HPP_CHECK(cudaEventCreate(&Stop));
    benchInterleave(Versions, WarmUp, Runs, [&](Version &V) {
      return V.Host ? benchHostMs(Flush, V.Call)
                    : benchTimeMs(Flush, Start, Stop, V.Call);
    });

    // The results of the last runs against refSelect.
    HppAsync();
    HPP_CHECK(cudaDeviceSynchronize());
    long long CubKept = 0;
    std::size_t AsyncKept = 0;
    HPP_CHECK(cudaMemcpy(&CubKept, CubCount, sizeof(CubKept),
                         cudaMemcpyDeviceToHost));
    HPP_CHECK(cudaMemcpy(&AsyncKept, HppCount, sizeof(AsyncKept),
                         cudaMemcpyDeviceToHost));
    std::vector<float> Host(N), Ref(N), Got(N);
    for (std::size_t I = 0; I < N; ++I)
      Host[I] = benchValue(I);
    const std::size_t Want =
        hpp::detail::refSelect(Host.data(), Ref.data(), N, LessHalf());
    HPP_CHECK(cudaMemcpy(Got.data(), Out.get(), Want * sizeof(float),
                         cudaMemcpyDefault));
    const bool HppOk = AsyncKept == Want && BlockingKept == Want &&
                       !std::memcmp(Got.data(), Ref.data(), Want * 4);
    HPP_CHECK(cudaMemcpy(Got.data(), CubOut, Want * sizeof(float),
                         cudaMemcpyDeviceToHost));
    const bool CubOk = CubKept == (long long)Want &&
                       !std::memcmp(Got.data(), Ref.data(), Want * 4);

    const double Bytes = InBytes + double(Want) * sizeof(float);
    const double CopyBytes = 2 * InBytes;
    const double CubMs = benchMedian(Versions[0].Ms);
    const double CubSyncMs = benchMedian(Versions[3].Ms);
    const double CopyGBs =
        CopyBytes / (benchMedian(Versions[2].Ms) * 1e-3) * 1e-9;
    std::printf("kept %zu of %zu; bytes moved %.0f MB (n * 4 read + kept * 4 "
                "written), copy %.0f MB\n",
                Want, N, Bytes * 1e-6, CopyBytes * 1e-6);
    for (const Version &V : Versions) {
      const double Med = benchMedian(V.Ms);
      const double GBs = (V.IsCopy ? CopyBytes : Bytes) / (Med * 1e-3) * 1e-9;
      const double Anchor = V.Host ? CubSyncMs : CubMs;
      std::printf("%s: median %.4f ms (%s), %7.1f GB/s, ratio to CUB%s %.4f, "
                  "%.3f of copy bandwidth\n",
                  V.Name, Med, V.Host ? "host clock" : "events", GBs,
                  V.Host ? " + sync" : "", Anchor / Med, GBs / CopyGBs);
    }
    std::printf("hpp: count %zu (async) %zu (blocking), %s; cub: count %lld, "
                "%s\n",
                AsyncKept, BlockingKept,
                HppOk ? "matches refSelect" : "MISMATCH", CubKept,
                CubOk ? "matches refSelect" : "differs from refSelect");

    HPP_CHECK(cudaEventDestroy(Start));
    HPP_CHECK(cudaEventDestroy(Stop));
    HPP_CHECK(cudaFree(HppScratch));
    HPP_CHECK(cudaFree(CubTemp));
    HPP_CHECK(cudaFree(HppCount));
    HPP_CHECK(cudaFree(CubCount));
    HPP_CHECK(cudaFree(CopyDst));
    HPP_CHECK(cudaFree(CubOut));
    hpp::deallocate(Out);
    hpp::deallocate(In);
    return HppOk ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
