//===- bench/algo_scan_bench.cu - hpp::inclusiveScan vs CUB InclusiveSum --===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Times, in one process, the inclusive float sum (prefix sums) of 2^28
/// pseudo-random floats in [0, 1) (1 GiB, default; bench_common.cuh's
/// input) to another array:
///  - cub::DeviceScan::InclusiveSum (the anchor), on the null stream;
///  - hpp::detail::gpu::scanAsync (runtime/hpp/backend/gpu_scan.h), the
///    stream-ordered piece of hpp::inclusiveScan (a zeroing of the tile
///    states and one kernel), on the same stream, with its scratch memory
///    allocated once;
///  - cudaMemcpyAsync device-to-device of the input (what the memory system
///    delivers to a plain copy, which moves the same bytes as the scan);
/// each between two cudaEvents; and on the host clock (steady_clock):
///  - hpp::inclusiveScan, the blocking call (prefetch, scratch, kernel,
///    wait);
///  - CUB followed by cudaStreamSynchronize.
/// Every round runs each version once, in a rotating order, each after an
/// untimed read of four times the L2 size (bench_common.cuh), after 3
/// warm-up rounds. Prints the medians, GB/s (bytes = n * 4 read + n * 4
/// written), the ratio to CUB (> 1: faster) and the fraction of the
/// copy's bandwidth.
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        bench/algo_scan_bench.cu -o algo_scan_bench
///   ./algo_scan_bench [n=268435456] [runs=25]
///   ./algo_scan_bench --check
///
/// The kernels' tuning macros (HPP_REDUCE_* and HPP_SCAN_*, -D flags) pick
/// variants of them; bench/algo_sweep.sh builds and times a set of them.
///
/// Exit status 1 when hpp's output (either call) differs in any bit from
/// refScan (hpp/core/algorithm_order.h) computed on the host; CUB's
/// agreement is printed, not judged (its order is another one). --check
/// times nothing: see bench/algo_reduce_scan.cuh.
///
//===----------------------------------------------------------------------===//

#include <hpp/runtime.h>

#include <cub/cub.cuh>

#include "bench_common.cuh"
// After the runtime, CUB and bench_common.cuh.
#include "algo_reduce_scan.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "--check") == 0)
    return checkReduceScan();
  const long long Requested = argc > 1 ? std::atoll(argv[1]) : (1LL << 28);
  const int Runs = argc > 2 ? std::atoi(argv[2]) : 25;
  if (Requested <= 0 || Requested > 0x7fffffffLL || Runs <= 0) {
    std::fprintf(stderr, "usage: %s [0 < n < 2^31] [runs > 0] | --check\n",
                 argv[0]);
    return 2;
  }
  const std::size_t N = static_cast<std::size_t>(Requested);
  const double Bytes = 2.0 * double(N) * sizeof(float); // Read + written.
  try {
    int Dev = 0;
    cudaDeviceProp Prop;
    HPP_CHECK(cudaGetDevice(&Dev));
    HPP_CHECK(cudaGetDeviceProperties(&Prop, Dev));
    std::printf("device: %s (%d SMs), n = %zu floats (%.0f MiB), %d timed "
                "rounds after 3 warm-up\n",
                Prop.name, Prop.multiProcessorCount, N,
                double(N) * sizeof(float) / (1 << 20), Runs);

    hpp::Pointer<float> In = hpp::allocate<float>(N);
    hpp::Pointer<float> Out = hpp::allocate<float>(N);
    float *CopyDst = nullptr;
    HPP_CHECK(cudaMalloc(&CopyDst, N * sizeof(float)));
    benchFill<<<4 * Prop.multiProcessorCount, 256>>>(In.get(), N);
    HPP_CHECK(cudaGetLastError());
    // Out resident on the device too (allocate zeroes it on the host side).
    HPP_CHECK(cudaMemset(Out.get(), 0, N * sizeof(float)));
    HPP_CHECK(cudaDeviceSynchronize());

    std::size_t TempBytes = 0;
    HPP_CHECK(cub::DeviceScan::InclusiveSum(nullptr, TempBytes, In.get(),
                                            Out.get(), static_cast<int>(N)));
    void *Temp = nullptr, *Scratch = nullptr;
    HPP_CHECK(cudaMalloc(&Temp, TempBytes));
    const std::size_t ScratchBytes =
        hpp::detail::gpu::scanScratchBytes<float>(N);
    HPP_CHECK(cudaMalloc(&Scratch, ScratchBytes));
    std::printf("scratch: cub %zu bytes, hpp %zu bytes\n", TempBytes,
                ScratchBytes);

    auto Cub = [&] {
      HPP_CHECK(cub::DeviceScan::InclusiveSum(Temp, TempBytes, In.get(),
                                              Out.get(), static_cast<int>(N)));
    };
    auto Hpp = [&] {
      hpp::detail::gpu::scanAsync<float>(0, In.get(), Out.get(), N, false, 0.0f,
                                         hpp::Plus<float>(), Scratch);
    };
    auto Copy = [&] {
      HPP_CHECK(cudaMemcpyAsync(CopyDst, In.get(), N * sizeof(float),
                                cudaMemcpyDeviceToDevice, 0));
    };
    auto Blocking = [&] { hpp::inclusiveScan(In, Out, N); };
    auto CubSync = [&] {
      Cub();
      HPP_CHECK(cudaStreamSynchronize(0));
    };
    std::vector<TimedVersion> Versions = {
        {"cub::DeviceScan::InclusiveSum", Cub, false, Bytes, {}},
        {"hpp scanAsync (inclusive)", Hpp, false, Bytes, {}},
        {"cudaMemcpyAsync D2D", Copy, false, Bytes, {}},
        {"cub + cudaStreamSynchronize", CubSync, true, Bytes, {}},
        {"hpp::inclusiveScan (blocking)", Blocking, true, Bytes, {}}};
    const L2Flush Flush(Prop);
    runInterleaved(Versions, Runs, Flush);
    printMedians(Versions, 2);

    // Each output against the reference, on the host.
    std::vector<float> Host(N), Ref(N), Got(N);
    for (std::size_t K = 0; K < N; ++K)
      Host[K] = benchValue(K);
    hpp::detail::refScan(Host.data(), Ref.data(), N, false, 0.0f,
                         hpp::Plus<float>());
    auto Differences = [&](const char *What, auto &&Run) {
      HPP_CHECK(cudaMemset(Out.get(), 0xff, N * sizeof(float)));
      HPP_CHECK(cudaDeviceSynchronize());
      Run();
      HPP_CHECK(cudaDeviceSynchronize());
      HPP_CHECK(cudaMemcpy(Got.data(), Out.get(), N * sizeof(float),
                           cudaMemcpyDeviceToHost));
      std::size_t Count = 0, First = N;
      for (std::size_t K = 0; K < N; ++K)
        if (std::memcmp(&Got[K], &Ref[K], sizeof(float)) != 0) {
          First = Count++ ? First : K;
        }
      std::printf("%s: %zu of %zu elements differ from refScan", What, Count,
                  N);
      if (Count)
        std::printf(" (first at %zu: %.9g, reference %.9g)", First,
                    double(Got[First]), double(Ref[First]));
      std::printf("; last %.9g\n", double(Got[N - 1]));
      return Count;
    };
    const std::size_t AsyncBad = Differences("hpp scanAsync", Hpp);
    const std::size_t BlockingBad = Differences("hpp::inclusiveScan", Blocking);
    const bool Ok = AsyncBad == 0 && BlockingBad == 0;
    Differences("cub (another order, not judged)", Cub);
    std::printf("hpp: %s\n", Ok ? "bit-identical" : "MISMATCH");

    HPP_CHECK(cudaFree(Scratch));
    HPP_CHECK(cudaFree(Temp));
    HPP_CHECK(cudaFree(CopyDst));
    hpp::deallocate(Out);
    hpp::deallocate(In);
    return Ok ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
