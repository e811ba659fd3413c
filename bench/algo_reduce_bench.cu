//===- bench/algo_reduce_bench.cu - hpp::reduce vs cub::DeviceReduce::Sum -===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Times, in one process, the float sum of 2^28 pseudo-random floats in
/// [0, 1) (1 GiB, default; bench_common.cuh's input):
///  - cub::DeviceReduce::Sum (the anchor), on the null stream;
///  - hpp::detail::gpu::reduceAsync (runtime/hpp/backend/gpu_reduce.h),
///    the stream-ordered piece of hpp::reduce, on the same stream, with its
///    scratch memory allocated once;
///  - cudaMemcpyAsync device-to-device of the input (what the memory system
///    delivers to a plain copy: it reads and writes 2 * n * 4 bytes);
/// each between two cudaEvents; and on the host clock (steady_clock):
///  - hpp::reduce, the blocking call (prefetch, scratch, kernels, the
///    result in pinned host memory, wait);
///  - CUB followed by cudaStreamSynchronize (its result stays on the
///    device).
/// Every round runs each version once, in a rotating order, each after an
/// untimed read of four times the L2 size (bench_common.cuh), after 3
/// warm-up rounds. Prints the medians, GB/s (bytes = n * 4 read), the ratio
/// to CUB (> 1: faster) and the fraction of the copy's bandwidth.
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        bench/algo_reduce_bench.cu -o algo_reduce_bench
///   ./algo_reduce_bench [n=268435456] [runs=25]
///   ./algo_reduce_bench --check
///
/// The kernels' tuning macros (HPP_REDUCE_* and HPP_SCAN_*, -D flags) pick
/// variants of them; bench/algo_sweep.sh builds and times a set of them.
///
/// Exit status 1 when hpp's sum (either call) differs in any bit from
/// refReduce (hpp/core/algorithm_order.h) computed on the host; CUB's sum
/// is printed, not judged (its order is another one). --check times
/// nothing: see bench/algo_reduce_scan.cuh.
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
  const double Bytes = double(N) * sizeof(float);
  try {
    int Dev = 0;
    cudaDeviceProp Prop;
    HPP_CHECK(cudaGetDevice(&Dev));
    HPP_CHECK(cudaGetDeviceProperties(&Prop, Dev));
    std::printf("device: %s (%d SMs), n = %zu floats (%.0f MiB), %d timed "
                "rounds after 3 warm-up\n",
                Prop.name, Prop.multiProcessorCount, N, Bytes / (1 << 20),
                Runs);

    hpp::Pointer<float> In = hpp::allocate<float>(N);
    float *CopyDst = nullptr, *CubOut = nullptr, *HppOut = nullptr;
    HPP_CHECK(cudaMalloc(&CopyDst, N * sizeof(float)));
    HPP_CHECK(cudaMalloc(&CubOut, sizeof(float)));
    HPP_CHECK(cudaMalloc(&HppOut, sizeof(float)));
    benchFill<<<4 * Prop.multiProcessorCount, 256>>>(In.get(), N);
    HPP_CHECK(cudaGetLastError());
    HPP_CHECK(cudaDeviceSynchronize());

    std::size_t TempBytes = 0;
    HPP_CHECK(cub::DeviceReduce::Sum(nullptr, TempBytes, In.get(), CubOut,
                                     static_cast<int>(N)));
    void *Temp = nullptr, *Scratch = nullptr;
    HPP_CHECK(cudaMalloc(&Temp, TempBytes));
    const std::size_t ScratchBytes =
        hpp::detail::gpu::reduceScratchBytes<float>(N);
    HPP_CHECK(cudaMalloc(&Scratch, ScratchBytes));
    std::printf("scratch: cub %zu bytes, hpp %zu bytes\n", TempBytes,
                ScratchBytes);

    float BlockingSum = 0;
    auto Cub = [&] {
      HPP_CHECK(cub::DeviceReduce::Sum(Temp, TempBytes, In.get(), CubOut,
                                       static_cast<int>(N)));
    };
    auto Hpp = [&] {
      hpp::detail::gpu::reduceAsync<float>(0, In.get(), N, HppOut, 0.0f,
                                           hpp::Plus<float>(), Scratch);
    };
    auto Copy = [&] {
      HPP_CHECK(cudaMemcpyAsync(CopyDst, In.get(), N * sizeof(float),
                                cudaMemcpyDeviceToDevice, 0));
    };
    auto Blocking = [&] { BlockingSum = hpp::reduce(In, N, 0.0f); };
    auto CubSync = [&] {
      Cub();
      HPP_CHECK(cudaStreamSynchronize(0));
    };
    std::vector<TimedVersion> Versions = {
        {"cub::DeviceReduce::Sum", Cub, false, Bytes, {}},
        {"hpp reduceAsync", Hpp, false, Bytes, {}},
        {"cudaMemcpyAsync D2D (read+write)", Copy, false, 2 * Bytes, {}},
        {"cub + cudaStreamSynchronize", CubSync, true, Bytes, {}},
        {"hpp::reduce (blocking)", Blocking, true, Bytes, {}}};
    const L2Flush Flush(Prop);
    runInterleaved(Versions, Runs, Flush);
    printMedians(Versions, 2);

    // The results of the last runs against the reference, on the host.
    float CubSum = 0, AsyncSum = 0;
    HPP_CHECK(
        cudaMemcpy(&CubSum, CubOut, sizeof(float), cudaMemcpyDeviceToHost));
    HPP_CHECK(
        cudaMemcpy(&AsyncSum, HppOut, sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<float> Host(N);
    for (std::size_t K = 0; K < N; ++K)
      Host[K] = benchValue(K);
    const float Ref =
        hpp::detail::refReduce(Host.data(), N, 0.0f, hpp::Plus<float>());
    const bool Ok = std::memcmp(&AsyncSum, &Ref, sizeof(float)) == 0 &&
                    std::memcmp(&BlockingSum, &Ref, sizeof(float)) == 0;
    std::printf("sums: reference %.9g, hpp reduceAsync %.9g, hpp::reduce "
                "%.9g (%s), cub %.9g\n",
                double(Ref), double(AsyncSum), double(BlockingSum),
                Ok ? "bit-identical" : "MISMATCH", double(CubSum));

    HPP_CHECK(cudaFree(Scratch));
    HPP_CHECK(cudaFree(Temp));
    HPP_CHECK(cudaFree(HppOut));
    HPP_CHECK(cudaFree(CubOut));
    HPP_CHECK(cudaFree(CopyDst));
    hpp::deallocate(In);
    return Ok ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
