//===- bench/algo_reduce_scan.cuh - What the reduce and scan benches share ===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Shared by bench/algo_reduce_bench.cu and bench/algo_scan_bench.cu
/// (include it after the runtime, CUB and bench_common.cuh):
///  - TimedVersion and runInterleaved: versions timed between cudaEvents on
///    the null stream or on the host clock (steady_clock, for the blocking
///    calls), each after the untimed L2 flush, 3 warm-up rounds, then
///    `runs` rounds in a rotating order; printMedians prints the medians,
///    GB/s, the ratio to the first version (CUB: > 1 is faster) and the
///    fraction of the copy's bandwidth;
///  - checkReduceScan, the --check mode of both: hpp::reduce (and
///    reduceAsync on an input one element off 16-byte alignment, which
///    takes the scalar loads), hpp::inclusiveScan and hpp::exclusiveScan
///    (apart and in place) for float, double, int and long long, with
///    Plus, Maximum and a user functor that is neither associative nor
///    commutative (so that any change of the order or of an operand's side
///    shows), on sizes around every tile and segment boundary, and reduce
///    alone on doubles whose tile values fill one, two and three groups of
///    the tree (gpu_reduce_tree.h: 2^26 - 1, 2^26 + 4097, 2^27 + 3
///    elements); each result
///    compared bit for bit (memcmp) with refReduce / refScan
///    (hpp/core/algorithm_order.h). One line per failure, then
///    `check: N cases, M failed`; returns the exit status.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_BENCH_ALGO_REDUCE_SCAN_CUH
#define HPP_BENCH_ALGO_REDUCE_SCAN_CUH

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

/// One version of a benchmark: a call, timed on events or on the host
/// clock, and the bytes it moves.
struct TimedVersion {
  const char *Name;
  std::function<void()> Call;
  bool HostClock; // Else cudaEvents around the call on the null stream.
  double BytesMoved;
  std::vector<double> Ms;
};

/// 3 warm-up rounds, then \p Runs rounds of every version in a rotating
/// order (bench_common.cuh's benchInterleave).
inline void runInterleaved(std::vector<TimedVersion> &Versions, int Runs,
                           const L2Flush &Flush) {
  cudaEvent_t Start, Stop;
  HPP_CHECK(cudaEventCreate(&Start));
  HPP_CHECK(cudaEventCreate(&Stop));
  benchInterleave(Versions, 3, Runs, [&](TimedVersion &V) {
    return V.HostClock ? benchHostMs(Flush, V.Call)
                       : benchTimeMs(Flush, Start, Stop, V.Call);
  });
  HPP_CHECK(cudaEventDestroy(Start));
  HPP_CHECK(cudaEventDestroy(Stop));
}

/// The medians, GB/s, ratio to Versions[0] and fraction of the copy's
/// (Versions[CopyAt]) bandwidth.
inline void printMedians(const std::vector<TimedVersion> &Versions,
                         std::size_t CopyAt) {
  auto GBs = [](const TimedVersion &V) {
    return V.BytesMoved / (benchMedian(V.Ms) * 1e-3) * 1e-9;
  };
  const double Anchor = GBs(Versions[0]), Copy = GBs(Versions[CopyAt]);
  for (const TimedVersion &V : Versions)
    std::printf("%-34s median %9.4f ms (%s), %7.1f GB/s, ratio to CUB "
                "%.4f, %.3f of the copy's bandwidth\n",
                V.Name, benchMedian(V.Ms), V.HostClock ? "host" : "events",
                GBs(V), GBs(V) / Anchor, GBs(V) / Copy);
}

namespace algocheck {

/// Neither associative nor commutative: a change of order or of sides
/// changes the bits.
struct Mix {
  template <class T> __host__ __device__ T operator()(T A, T B) const {
    if constexpr (std::is_floating_point<T>::value)
      return A * T(0.5) + B;
    else
      return (A >> 1) + B;
  }
};

/// Input element K of a --check case: mixed signs and magnitudes, so that
/// floating-point sums round differently in every order.
template <class T> T checkValue(std::uint64_t K) {
  std::uint64_t H = K * 0x9E3779B97F4A7C15ull;
  H ^= H >> 29;
  H *= 0xBF58476D1CE4E5B9ull;
  H ^= H >> 32;
  const long long Small = static_cast<long long>(H % 2001) - 1000;
  if constexpr (std::is_floating_point<T>::value)
    return T(Small) * T(1.0 / 64) * T(1 << (H >> 61)) + T(benchValue(K));
  else
    return T(Small);
}

struct Counts {
  int Cases = 0, Failed = 0;
  void report(bool Ok, const std::string &What) {
    ++Cases;
    if (!Ok) {
      ++Failed;
      std::printf("FAIL %s\n", What.c_str());
    }
  }
};

/// Whether \p A and \p B are the same bits.
template <class T> bool sameBits(const T &A, const T &B) {
  return std::memcmp(&A, &B, sizeof(T)) == 0;
}

/// reduce on In[0 .. N) (the device copy of \p Host[0 .. N]): the
/// blocking call, then reduceAsync one element off alignment (In is
/// 16-byte aligned, In + 1 is not), each against refReduce.
template <class T, class Op>
void checkReduceCalls(hpp::Pointer<T> In, const std::vector<T> &Host,
                      std::size_t N, T Init, const std::string &Name,
                      Counts &C) {
  using namespace hpp::detail;
  const T R = hpp::reduce(In, N, Init, Op());
  C.report(sameBits(R, refReduce(Host.data(), N, Init, Op())),
           "reduce " + Name);
  void *Scratch = nullptr;
  T *Result = nullptr;
  HPP_CHECK(cudaMalloc(&Scratch, gpu::reduceScratchBytes<T>(N)));
  HPP_CHECK(cudaMalloc(&Result, sizeof(T)));
  gpu::reduceAsync<T, Op>(0, In.get() + 1, N, Result, Init, Op(), Scratch);
  T Value;
  HPP_CHECK(cudaMemcpy(&Value, Result, sizeof(T), cudaMemcpyDeviceToHost));
  C.report(sameBits(Value, refReduce(Host.data() + 1, N, Init, Op())),
           "reduceAsync(unaligned) " + Name);
  HPP_CHECK(cudaFree(Result));
  HPP_CHECK(cudaFree(Scratch));
}

template <class T, class Op>
void checkCase(std::size_t N, const char *TypeName, const char *OpName,
               Counts &C) {
  using namespace hpp::detail;
  const std::string Name =
      std::string(TypeName) + " " + OpName + " n=" + std::to_string(N);
  std::vector<T> Host(N + 1), Ref(N + 1), Got(N + 1);
  for (std::size_t K = 0; K <= N; ++K)
    Host[K] = checkValue<T>(K);
  hpp::Pointer<T> In = hpp::allocate<T>(N + 1);
  hpp::Pointer<T> Out = hpp::allocate<T>(N + 1);
  const T Init = checkValue<T>(N + 12345);
  auto Upload = [&] {
    HPP_CHECK(cudaMemcpy(In.get(), Host.data(), (N + 1) * sizeof(T),
                         cudaMemcpyHostToDevice));
  };

  Upload();
  checkReduceCalls<T, Op>(In, Host, N, Init, Name, C);

  // The scans, apart and in place; Out[N] (and In[N]) must stay untouched.
  for (int Exclusive = 0; Exclusive < 2; ++Exclusive)
    for (int InPlace = 0; InPlace < 2; ++InPlace) {
      Upload();
      const std::vector<T> Sentinel(N + 1, checkValue<T>(777));
      if (!InPlace)
        HPP_CHECK(cudaMemcpy(Out.get(), Sentinel.data(), (N + 1) * sizeof(T),
                             cudaMemcpyHostToDevice));
      hpp::Pointer<T> Dst = InPlace ? In : Out;
      if (Exclusive)
        hpp::exclusiveScan(In, Dst, N, Init, Op());
      else
        hpp::inclusiveScan(In, Dst, N, Op());
      HPP_CHECK(cudaMemcpy(Got.data(), Dst.get(), (N + 1) * sizeof(T),
                           cudaMemcpyDeviceToHost));
      for (std::size_t K = 0; K <= N; ++K)
        Ref[K] = InPlace ? Host[K] : Sentinel[K];
      refScan(Host.data(), Ref.data(), N, Exclusive != 0, Init, Op());
      std::size_t Bad = N + 1;
      for (std::size_t K = 0; K <= N && Bad > N; ++K)
        if (!sameBits(Got[K], Ref[K]))
          Bad = K;
      C.report(
          Bad > N,
          std::string(Exclusive ? "exclusiveScan" : "inclusiveScan") +
              (InPlace ? "(in place) " : " ") + Name +
              (Bad > N ? "" : " first difference at " + std::to_string(Bad)));
    }
  hpp::deallocate(Out);
  hpp::deallocate(In);
}

/// reduce alone, blocking and unaligned, on n elements: for the sizes whose
/// tile values fill more than one group of the tree (gpu_reduce_tree.h).
template <class T, class Op>
void checkReduceOnly(std::size_t N, const char *TypeName, const char *OpName,
                     Counts &C) {
  const std::string Name =
      std::string(TypeName) + " " + OpName + " n=" + std::to_string(N);
  std::vector<T> Host(N + 1);
  for (std::size_t K = 0; K <= N; ++K)
    Host[K] = checkValue<T>(K);
  hpp::Pointer<T> In = hpp::allocate<T>(N + 1);
  HPP_CHECK(cudaMemcpy(In.get(), Host.data(), (N + 1) * sizeof(T),
                       cudaMemcpyHostToDevice));
  checkReduceCalls<T, Op>(In, Host, N, checkValue<T>(N + 12345), Name, C);
  hpp::deallocate(In);
}

template <class T> void checkType(const char *TypeName, Counts &C) {
  const std::size_t Sizes[] = {
      0,    1,    2,    31,   32,   33,   255,   256,     257,
      4095, 4096, 4097, 8191, 8192, 8193, 65537, 1000003, (1u << 24) + 5};
  for (std::size_t N : Sizes) {
    checkCase<T, hpp::Plus<T>>(N, TypeName, "Plus", C);
    checkCase<T, hpp::Maximum<T>>(N, TypeName, "Maximum", C);
    checkCase<T, Mix>(N, TypeName, "Mix", C);
  }
}

} // namespace algocheck

/// The --check mode (see the file comment); the exit status.
inline int checkReduceScan() {
  algocheck::Counts C;
  try {
    algocheck::checkType<float>("float", C);
    algocheck::checkType<double>("double", C);
    algocheck::checkType<int>("int", C);
    algocheck::checkType<long long>("long long", C);
    // Tile values past one group of the tree: 16,386 of double's tiles of
    // 4,096 against groups of 16,384; at both ends of a group.
    for (std::size_t N :
         {(std::size_t(1) << 26) + 4097, (std::size_t(1) << 26) - 1,
          (std::size_t(1) << 27) + 3}) {
      algocheck::checkReduceOnly<double, hpp::Plus<double>>(N, "double", "Plus",
                                                            C);
      algocheck::checkReduceOnly<double, algocheck::Mix>(N, "double", "Mix", C);
    }
  } catch (const hpp::RuntimeError &E) {
    std::printf("RuntimeError: %s\n", E.what());
    ++C.Failed;
  }
  std::printf("check: %d cases, %d failed\n", C.Cases, C.Failed);
  return C.Failed ? 1 : 0;
}

#endif // HPP_BENCH_ALGO_REDUCE_SCAN_CUH
