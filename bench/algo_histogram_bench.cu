//===- bench/algo_histogram_bench.cu - hpp::histogram vs CUB --------------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Times, in one process, 256 even bins over [0, 1) of 2^28 pseudo-random
/// floats in [0, 1) (1 GiB, default; bench_common.cuh's input), and 256
/// bins of as many bytes (the floats' top byte; hpp: [0, 255),
/// CUB: [0, 256), the same bins 0 .. 254):
///  - cub::DeviceHistogram::HistogramEven (257 levels; the anchor), on the
///    null stream;
///  - hpp::detail::gpu::histogramAsync (runtime/hpp/backend/gpu_histogram.h),
///    the stream-ordered piece of hpp::histogram, on the same stream;
///  - cudaMemcpyAsync device-to-device of the samples (what the memory
///    system delivers to a plain copy: it reads and writes them);
/// each between two cudaEvents; and for the floats, on the host clock
/// (steady_clock):
///  - hpp::histogram, the blocking call;
///  - CUB followed by cudaStreamSynchronize.
/// Every round runs each version once, in a rotating order, each after an
/// untimed read of four times the L2 size (bench_common.cuh), after 3
/// warm-up rounds. Prints the medians, GB/s (bytes read), the ratio to CUB
/// (> 1: faster) and the fraction of the copy's bandwidth (the copy moves
/// twice the bytes).
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        bench/algo_histogram_bench.cu -o algo_histogram_bench
///   ./algo_histogram_bench [n=268435456] [runs=25]
///   ./algo_histogram_bench --check
///
/// Exit status 1 when hpp's bins differ from refHistogram
/// (hpp/core/algorithms.h). CUB computes a float sample's bin its own way,
/// which may differ from EvenBins' at a bin's edge: its agreement is
/// printed, not judged. --check times nothing: it runs hpp::histogram on
/// many sizes, sample types (8- to 32-bit integers, float, double; values
/// outside the range, and for floating point NaN and infinities), ranges,
/// bin counts and count types, with the samples aligned and not, and
/// compares the bins with refHistogram; one line per failure, then
/// `check: N cases, M failed`.
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

std::uint32_t hash32(std::uint64_t K) {
  std::uint32_t H = static_cast<std::uint32_t>(K ^ (K >> 32)) * 2654435761u;
  H ^= H >> 15;
  H *= 0x2c1b3c6du;
  H ^= H >> 12;
  H *= 0x297a2d39u;
  H ^= H >> 15;
  return H;
}

/// The byte samples: the top byte of the float input's 24-bit hash.
__global__ void fillBytes(unsigned char *Out, std::size_t N) {
  std::size_t Stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t K = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
       K < N; K += Stride)
    Out[K] = static_cast<unsigned char>(benchValue(K) * 256.0f);
}

/// The sample of --check at index \p I for the range [Lo, Hi): mostly
/// inside, some outside on either side; for floating point, NaN and
/// infinities now and then, and exact bin edges.
template <class T> T checkSample(std::size_t I, T Lo, T Hi, int NumBins) {
  const std::uint32_t H = hash32(I);
  if constexpr (std::is_floating_point<T>::value) {
    switch (H % 53) {
    case 0:
      return std::numeric_limits<T>::quiet_NaN();
    case 1:
      return std::numeric_limits<T>::infinity();
    case 2:
      return -std::numeric_limits<T>::infinity();
    case 3:
      return Hi;
    case 4:
      return Lo;
    case 5: // A bin edge.
      return Lo + (Hi - Lo) * T(hash32(I + 7) % (NumBins + 1)) / T(NumBins);
    default:
      break;
    }
    const T U = T(hash32(I * 3 + 1) >> 8) / T(1 << 24); // [0, 1)
    return Lo + (Hi - Lo) * (T(1.2) * U - T(0.1));
  } else {
    // Integers: uniform over all values of T (8 and 16 bits), or over a
    // window a little wider than the range (32 bits).
    if constexpr (sizeof(T) <= 2) {
      return static_cast<T>(H >> 7);
    } else {
      const long long Span = (long long)Hi - (long long)Lo;
      const long long Wide = Span + Span / 8 + 2;
      long long V = (long long)Lo - Span / 16 - 1 +
                    (long long)(((unsigned long long)H * 0x9e3779b97f4a7c15ull ^
                                 hash32(I + 99)) %
                                (unsigned long long)Wide);
      V = std::max<long long>(V, std::numeric_limits<T>::min());
      V = std::min<long long>(V, std::numeric_limits<T>::max());
      return static_cast<T>(V);
    }
  }
}

const char *countName(int) { return "int"; }
const char *countName(unsigned) { return "unsigned"; }
const char *countName(long long) { return "long long"; }
const char *countName(unsigned long long) { return "unsigned long long"; }

/// The bins of --check.
const int CheckBins[] = {1, 7, 256, 1000, 5000, 20000};

/// One case: n samples of T at element offset \p Offset of \p Buffer
/// (filled), Bins counting in C.
template <class T, class C>
bool checkCase(const char *TypeName, hpp::Pointer<T> Buffer, std::size_t Offset,
               std::size_t N, int NumBins, T Lo, T Hi) {
  hpp::Pointer<C> Bins = hpp::allocate<C>(std::size_t(NumBins));
  for (int I = 0; I < NumBins; ++I)
    Bins[I] = C(12345); // Must be overwritten.
  std::vector<C> Ref(static_cast<std::size_t>(NumBins));
  std::string Why;
  try {
    hpp::histogram(hpp::Pointer<T>(Buffer.get() + Offset, N), N, Bins, NumBins,
                   Lo, Hi);
    hpp::detail::refHistogram(Buffer.get() + Offset, N, Ref.data(),
                              hpp::detail::EvenBins<T>(Lo, Hi, NumBins));
    for (int I = 0; I < NumBins; ++I)
      if (Bins[I] != Ref[I]) {
        Why = "bins[" + std::to_string(I) +
              "] = " + std::to_string((long long)Bins[I]) + ", want " +
              std::to_string((long long)Ref[I]);
        break;
      }
  } catch (const hpp::RuntimeError &E) {
    Why = std::string("threw: ") + E.what();
  }
  hpp::deallocate(Bins);
  if (Why.empty())
    return true;
  std::printf("FAIL histogram<%s, %s> n=%zu offset=%zu bins=%d range=[%.17g, "
              "%.17g): %s\n",
              TypeName, countName(C()), N, Offset, NumBins, double(Lo),
              double(Hi), Why.c_str());
  return false;
}

/// Every size, bin count and range of one sample type; the count type and
/// the offset (0: 16-byte aligned; else 1, 2 or 3 elements past) change
/// from case to case.
template <class T>
void checkType(const char *TypeName, const std::vector<std::pair<T, T>> &Ranges,
               int &Cases, int &Failed) {
  const std::size_t Sizes[] = {0,
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
  const std::size_t Max = Sizes[sizeof(Sizes) / sizeof(Sizes[0]) - 1] + 3;
  hpp::Pointer<T> Buffer = hpp::allocate<T>(Max);
  int Variant = 0;
  for (const auto &Range : Ranges)
    for (int NumBins : CheckBins) {
      for (std::size_t I = 0; I < Max; ++I)
        Buffer[I] = checkSample<T>(I, Range.first, Range.second, NumBins);
      for (std::size_t N : Sizes) {
        ++Cases;
        const std::size_t Offset = Variant % 4;
        bool Ok;
        switch (Variant++ % 4) {
        case 0:
          Ok = checkCase<T, int>(TypeName, Buffer, Offset, N, NumBins,
                                 Range.first, Range.second);
          break;
        case 1:
          Ok = checkCase<T, unsigned>(TypeName, Buffer, Offset, N, NumBins,
                                      Range.first, Range.second);
          break;
        case 2:
          Ok = checkCase<T, long long>(TypeName, Buffer, Offset, N, NumBins,
                                       Range.first, Range.second);
          break;
        default:
          Ok = checkCase<T, unsigned long long>(
              TypeName, Buffer, Offset, N, NumBins, Range.first, Range.second);
          break;
        }
        Failed += !Ok;
      }
    }
  hpp::deallocate(Buffer);
}

int runCheck() {
  int Cases = 0, Failed = 0;
  checkType<float>("float", {{0.0f, 1.0f}, {-2.5f, 7.25f}}, Cases, Failed);
  checkType<double>("double", {{0.0, 1.0}, {-1e3, 3.5e4}}, Cases, Failed);
  checkType<unsigned char>("unsigned char", {{0, 255}, {10, 250}}, Cases,
                           Failed);
  checkType<signed char>("signed char", {{-128, 127}, {-100, 100}}, Cases,
                         Failed);
  checkType<short>("short", {{-1000, 30000}}, Cases, Failed);
  checkType<unsigned short>("unsigned short", {{0, 65535}}, Cases, Failed);
  // Beyond 4 bins (int) or 1 (unsigned) the bin needs 64-bit arithmetic.
  checkType<int>("int", {{-1000000, 1000000000}, {-1000000000, 1100000000}},
                 Cases, Failed);
  checkType<unsigned>("unsigned", {{5u, 4000000000u}}, Cases, Failed);
  std::printf("check: %d cases, %d failed\n", Cases, Failed);
  return Failed ? 1 : 0;
}

struct Version {
  const char *Name;
  std::function<void()> Call;
  bool Host;   // Timed on the host clock.
  bool IsCopy; // Moves twice the bytes.
  std::vector<double> Ms;
};

/// Runs \p Versions (the first is CUB on events, the host-clock ones are
/// compared with the first host-clock one) and prints them.
void timeAndPrint(std::vector<Version> &Versions, int Runs, double Bytes,
                  const L2Flush &Flush) {
  cudaEvent_t Start, Stop;
  HPP_CHECK(cudaEventCreate(&Start));
  HPP_CHECK(cudaEventCreate(&Stop));
  benchInterleave(Versions, 3, Runs, [&](Version &V) {
    return V.Host ? benchHostMs(Flush, V.Call)
                  : benchTimeMs(Flush, Start, Stop, V.Call);
  });
  double CubMs = 0, CubHostMs = 0, CopyGBs = 0;
  for (const Version &V : Versions) {
    if (V.IsCopy)
      CopyGBs = 2 * Bytes / (benchMedian(V.Ms) * 1e-3) * 1e-9;
    if (!V.Host && !CubMs)
      CubMs = benchMedian(V.Ms);
    if (V.Host && !CubHostMs)
      CubHostMs = benchMedian(V.Ms);
  }
  for (const Version &V : Versions) {
    const double Med = benchMedian(V.Ms);
    const double GBs = (V.IsCopy ? 2 : 1) * Bytes / (Med * 1e-3) * 1e-9;
    std::printf("%s: median %.4f ms (%s), %7.1f GB/s, ratio to CUB%s %.4f, "
                "%.3f of copy bandwidth\n",
                V.Name, Med, V.Host ? "host clock" : "events", GBs,
                V.Host ? " + sync" : "", (V.Host ? CubHostMs : CubMs) / Med,
                GBs / CopyGBs);
  }
  HPP_CHECK(cudaEventDestroy(Start));
  HPP_CHECK(cudaEventDestroy(Stop));
}

/// The bins in device memory \p Dev against \p Ref: the first difference,
/// or -1.
long long firstDifference(const int *Dev, const std::vector<int> &Ref) {
  std::vector<int> Got(Ref.size());
  HPP_CHECK(
      cudaMemcpy(Got.data(), Dev, Ref.size() * sizeof(int), cudaMemcpyDefault));
  for (std::size_t I = 0; I < Ref.size(); ++I)
    if (Got[I] != Ref[I])
      return (long long)I;
  return -1;
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
  if (Requested <= 0 || Requested > 0x7fffffffLL || Runs <= 0) {
    std::fprintf(stderr, "usage: %s [0 < n < 2^31] [runs > 0] | --check\n",
                 argv[0]);
    return 2;
  }
  const std::size_t N = static_cast<std::size_t>(Requested);
  const int NumBins = 256;
  try {
    int Dev = 0;
    cudaDeviceProp Prop;
    HPP_CHECK(cudaGetDevice(&Dev));
    HPP_CHECK(cudaGetDeviceProperties(&Prop, Dev));
    std::printf("device: %s (%d SMs), n = %zu samples, %d bins, %d timed "
                "runs each after 3 warm-up\n",
                Prop.name, Prop.multiProcessorCount, N, NumBins, Runs);

    hpp::Pointer<float> In = hpp::allocate<float>(N);
    hpp::Pointer<int> Bins = hpp::allocate<int>(NumBins);
    unsigned char *Bytes = nullptr;
    int *CubBins = nullptr, *HppBins = nullptr, *CopyDst = nullptr;
    HPP_CHECK(cudaMalloc(&Bytes, N));
    HPP_CHECK(cudaMalloc(&CubBins, NumBins * sizeof(int)));
    HPP_CHECK(cudaMalloc(&HppBins, NumBins * sizeof(int)));
    HPP_CHECK(cudaMalloc(&CopyDst, N * sizeof(float)));
    benchFill<<<4 * Prop.multiProcessorCount, 256>>>(In.get(), N);
    fillBytes<<<4 * Prop.multiProcessorCount, 256>>>(Bytes, N);
    HPP_CHECK(cudaGetLastError());
    HPP_CHECK(cudaDeviceSynchronize());
    hpp::detail::prefetchPointers(std::make_tuple(In, Bins));
    HPP_CHECK(cudaDeviceSynchronize());
    const L2Flush Flush(Prop);

    // Floats in [0, 1).
    const hpp::detail::EvenBins<float> FloatBins(0.0f, 1.0f, NumBins);
    std::size_t TempBytes = 0, TempBytes8 = 0;
    HPP_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, TempBytes, In.get(),
                                                  CubBins, NumBins + 1, 0.0f,
                                                  1.0f, (long long)N));
    HPP_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, TempBytes8, Bytes,
                                                  CubBins, NumBins + 1, 0, 256,
                                                  (long long)N));
    void *Temp = nullptr;
    HPP_CHECK(cudaMalloc(
        &Temp, std::max<std::size_t>(std::max(TempBytes, TempBytes8), 1)));
    auto Cub = [&] {
      std::size_t B = TempBytes;
      HPP_CHECK(cub::DeviceHistogram::HistogramEven(
          Temp, B, In.get(), CubBins, NumBins + 1, 0.0f, 1.0f, (long long)N));
    };
    auto HppAsync = [&] {
      hpp::detail::gpu::histogramAsync(cudaStream_t(0), In.get(), N, HppBins,
                                       FloatBins);
    };
    auto Copy = [&] {
      HPP_CHECK(cudaMemcpyAsync(CopyDst, In.get(), N * sizeof(float),
                                cudaMemcpyDeviceToDevice, 0));
    };
    auto CubSync = [&] {
      Cub();
      HPP_CHECK(cudaStreamSynchronize(0));
    };
    auto HppBlocking = [&] {
      hpp::histogram(In, N, Bins, NumBins, 0.0f, 1.0f);
    };
    std::vector<Version> Floats = {
        {"float: cub HistogramEven       ", Cub, false, false, {}},
        {"float: hpp histogramAsync      ", HppAsync, false, false, {}},
        {"float: cudaMemcpyAsync D2D     ", Copy, false, true, {}},
        {"float: cub + cudaStreamSync    ", CubSync, true, false, {}},
        {"float: hpp::histogram (blocking)", HppBlocking, true, false, {}}};
    timeAndPrint(Floats, Runs, double(N) * sizeof(float), Flush);

    // The results of the last runs against refHistogram.
    std::vector<float> Host(N);
    for (std::size_t I = 0; I < N; ++I)
      Host[I] = benchValue(I);
    std::vector<int> Ref(NumBins);
    hpp::detail::refHistogram(Host.data(), N, Ref.data(), FloatBins);
    const long long AsyncDiff = firstDifference(HppBins, Ref);
    const long long BlockingDiff = firstDifference(Bins.get(), Ref);
    const long long CubDiff = firstDifference(CubBins, Ref);
    bool Ok = AsyncDiff < 0 && BlockingDiff < 0;
    std::printf("float bins: hpp async %s, hpp blocking %s; cub %s\n",
                AsyncDiff < 0 ? "match refHistogram" : "MISMATCH",
                BlockingDiff < 0 ? "match refHistogram" : "MISMATCH",
                CubDiff < 0 ? "matches refHistogram"
                            : "differs from refHistogram (bin edges)");

    // Bytes: EvenBins' upper bound is exclusive and an unsigned char cannot
    // hold 256, so hpp counts 256 bins over [0, 255): bin v holds the value
    // v (v * 256 / 255 rounded down), bin 255 nothing; CUB's 256 bins over
    // [0, 256) agree on bins 0 .. 254. The work is the same.
    const hpp::detail::EvenBins<unsigned char> ByteBins(0, 255, NumBins);
    auto Cub8 = [&] {
      std::size_t B = TempBytes8;
      HPP_CHECK(cub::DeviceHistogram::HistogramEven(
          Temp, B, Bytes, CubBins, NumBins + 1, 0, 256, (long long)N));
    };
    auto Hpp8 = [&] {
      hpp::detail::gpu::histogramAsync(cudaStream_t(0), Bytes, N, HppBins,
                                       ByteBins);
    };
    auto Copy8 = [&] {
      HPP_CHECK(
          cudaMemcpyAsync(CopyDst, Bytes, N, cudaMemcpyDeviceToDevice, 0));
    };
    std::vector<Version> Bytes8 = {
        {"uint8: cub HistogramEven       ", Cub8, false, false, {}},
        {"uint8: hpp histogramAsync      ", Hpp8, false, false, {}},
        {"uint8: cudaMemcpyAsync D2D     ", Copy8, false, true, {}}};
    timeAndPrint(Bytes8, Runs, double(N), Flush);
    std::vector<unsigned char> HostBytes(N);
    HPP_CHECK(cudaMemcpy(HostBytes.data(), Bytes, N, cudaMemcpyDeviceToHost));
    hpp::detail::refHistogram(HostBytes.data(), N, Ref.data(), ByteBins);
    const long long Diff8 = firstDifference(HppBins, Ref);
    std::vector<int> Cub8Got(NumBins);
    HPP_CHECK(cudaMemcpy(Cub8Got.data(), CubBins, NumBins * sizeof(int),
                         cudaMemcpyDeviceToHost));
    bool Cub8Ok = true;
    for (int I = 0; I < 255; ++I)
      Cub8Ok &= Cub8Got[I] == Ref[I];
    Ok &= Diff8 < 0;
    std::printf("uint8 bins: hpp %s; cub %s\n",
                Diff8 < 0 ? "match refHistogram" : "MISMATCH",
                Cub8Ok ? "matches on bins 0-254" : "differs on bins 0-254");

    HPP_CHECK(cudaFree(Temp));
    HPP_CHECK(cudaFree(CopyDst));
    HPP_CHECK(cudaFree(HppBins));
    HPP_CHECK(cudaFree(CubBins));
    HPP_CHECK(cudaFree(Bytes));
    hpp::deallocate(Bins);
    hpp::deallocate(In);
    return Ok ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
