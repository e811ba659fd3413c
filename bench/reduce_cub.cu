//===- bench/reduce_cub.cu - Rewritten warp_reduce vs CUB vs memcpy -------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Times, in one process on the same 2^28 floats (1 GiB, default):
///  - cub::DeviceReduce::Sum (the library reduction);
///  - cudaMemcpyAsync device-to-device of the same bytes (what the memory
///    system delivers to a plain copy: it reads and writes them);
///  - the reduction of examples/warp_reduce.cpp as rewritten by hpp-rewrite
///    (the CUDA-way warp code turned width-portable);
///  - the same algorithm hand-written in CUDA (handReduce below: the
///    example's grid, loads, 0xffffffff shuffle tree and one atomicAdd per
///    warp), launched asynchronously, and again followed by a
///    cudaStreamSynchronize inside the timed region: parallelFor blocks
///    until the kernel is done, so "hand + sync" is what the generated call
///    can at best reach, and "hand" minus "hand + sync" is the cost of that
///    blocking;
///  - the generated kernel (HPP_GENERATED_KERNEL, default
///    hpp_reduceSum_pfor0) launched with <<<>>> like the hand-written one,
///    alone and followed by the synchronisation: what reduceSum adds to it
///    is the runtime's launch path;
///  - CUB followed by cudaStreamSynchronize (the anchor of a blocking call);
///  - hpp::reduce, the runtime's own reduction (blocking; its bits must
///    equal the CPU reference's, hpp::detail::refReduce).
///
/// The rewritten source is #included; name it with HPP_GENERATED (its main
/// is renamed away). It must define
///   void reduceSum(hpp::Pointer<float> in, std::size_t n,
///                  hpp::Pointer<float> sum);   // sum[0] += in[0..n)
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        -DHPP_GENERATED='"/abs/path/gen/warp_reduce.cu"' \
///        bench/reduce_cub.cu -o reduce_cub
///   ./reduce_cub [n=268435456] [runs=20]
///
/// (HPP_GENERATED is an #include path: relative to bench/ or an -I
/// directory, or absolute.) bench/run_reduce.sh builds and runs it.
///
/// The input is managed memory from hpp::allocate (what the generated code
/// takes), filled on the device, so it is resident there; every version
/// reads the same buffer. The floats are pseudo-random in [0, 1) (24-bit
/// integers scaled by 2^-24, the same on host and device), so the float
/// sums' rounding errors do not line up; the reference is a double sum on
/// the host. Each version runs 3 times to warm up, then `runs` times,
/// interleaved, each after an untimed read of a scratch buffer four times
/// the L2 size (so that no version pays for the dirty lines the one before
/// left, e.g. the copy's); every run is timed with cudaEvents on the null
/// stream around the whole call: for CUB the call (its two kernels), for memcpy
/// the copy, for hpp a cudaMemsetAsync of the accumulator plus reduceSum
/// (one launch; parallelFor waits for it, so the stop event also counts the
/// host's wake-up after the kernel, a few microseconds).
///
/// Prints the medians, GB/s (10^9 bytes/s; bytes read for the reductions,
/// bytes read + written for the copy), each one's ratio to CUB (> 1:
/// faster than CUB), and the sums with their relative error against the
/// reference. Exit status 0 only when every reduction is within 1e-5.
///
//===----------------------------------------------------------------------===//

#include <cub/cub.cuh>

#ifndef HPP_GENERATED
#error "define HPP_GENERATED as the path of the rewritten warp_reduce source"
#endif

#define main hpp_generated_main
// The kernel the rewrite outlines from reduceSum's parallelFor.
#ifndef HPP_GENERATED_KERNEL
#define HPP_GENERATED_KERNEL hpp_reduceSum_pfor0
#endif
#include HPP_GENERATED
#undef main

#include "bench_common.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

/// examples/warp_reduce.cpp's reduction as one would write it in CUDA: the
/// same grid (reduceGroups from the generated source), four 16-byte loads
/// per iteration, a 32-lane shuffle tree, one atomicAdd per warp.
__global__ void handReduce(const float *In, std::size_t N, float *Sum) {
  std::size_t Item = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  std::size_t Items = std::size_t(gridDim.x) * blockDim.x;
  const float4 *In4 = reinterpret_cast<const float4 *>(In);
  std::size_t Vectors = N / 4;
  float A0 = 0, A1 = 0, A2 = 0, A3 = 0;
  std::size_t V = Item;
  for (; V + 3 * Items < Vectors; V += 4 * Items) {
    float4 X0 = In4[V], X1 = In4[V + Items], X2 = In4[V + 2 * Items],
           X3 = In4[V + 3 * Items];
    A0 += (X0.x + X0.y) + (X0.z + X0.w);
    A1 += (X1.x + X1.y) + (X1.z + X1.w);
    A2 += (X2.x + X2.y) + (X2.z + X2.w);
    A3 += (X3.x + X3.y) + (X3.z + X3.w);
  }
  for (; V < Vectors; V += Items) {
    float4 X = In4[V];
    A0 += (X.x + X.y) + (X.z + X.w);
  }
  for (std::size_t E = 4 * Vectors + Item; E < N; E += Items)
    A1 += In[E];
  float Value = (A0 + A1) + (A2 + A3);
  for (int Offset = 16; Offset > 0; Offset /= 2)
    Value += __shfl_down_sync(0xffffffff, Value, Offset);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(Sum, Value);
}

int main(int argc, char **argv) {
  const long long Requested = argc > 1 ? std::atoll(argv[1]) : (1LL << 28);
  const int Runs = argc > 2 ? std::atoi(argv[2]) : 20;
  const int WarmUp = 3;
  if (Requested <= 0 || Requested > 0x7fffffffLL || Runs <= 0) {
    std::fprintf(stderr, "usage: %s [0 < n < 2^31] [runs > 0]\n", argv[0]);
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
                "runs each after %d warm-up\n",
                Prop.name, Prop.multiProcessorCount, N, Bytes / (1 << 20), Runs,
                WarmUp);
    const char *Prefetch = std::getenv("HPP_PREFETCH");
    std::printf("generated source: %s; HPP_PREFETCH=%s\n", HPP_GENERATED,
                Prefetch && *Prefetch ? Prefetch : "first (default)");

    hpp::Pointer<float> In = hpp::allocate<float>(N);
    hpp::Pointer<float> Sum = hpp::allocate<float>(1);
    float *CopyDst = nullptr, *CubOut = nullptr, *HandOut = nullptr;
    HPP_CHECK(cudaMalloc(&CopyDst, N * sizeof(float)));
    HPP_CHECK(cudaMalloc(&CubOut, sizeof(float)));
    HPP_CHECK(cudaMalloc(&HandOut, sizeof(float)));
    benchFill<<<4 * Prop.multiProcessorCount, 256>>>(In.get(), N);
    HPP_CHECK(cudaGetLastError());
    HPP_CHECK(cudaDeviceSynchronize());

    std::size_t TempBytes = 0;
    HPP_CHECK(cub::DeviceReduce::Sum(nullptr, TempBytes, In.get(), CubOut,
                                     static_cast<int>(N)));
    void *Temp = nullptr;
    HPP_CHECK(cudaMalloc(&Temp, TempBytes));

    auto Cub = [&] {
      HPP_CHECK(cub::DeviceReduce::Sum(Temp, TempBytes, In.get(), CubOut,
                                       static_cast<int>(N)));
    };
    auto Copy = [&] {
      HPP_CHECK(cudaMemcpyAsync(CopyDst, In.get(), N * sizeof(float),
                                cudaMemcpyDeviceToDevice, 0));
    };
    auto Gen = [&] {
      HPP_CHECK(cudaMemsetAsync(Sum.get(), 0, sizeof(float), 0));
      reduceSum(In, N, Sum);
    };
    const unsigned HandGroups = static_cast<unsigned>(reduceGroups(N));
    auto Hand = [&] {
      HPP_CHECK(cudaMemsetAsync(HandOut, 0, sizeof(float), 0));
      handReduce<<<HandGroups, GroupSize>>>(In.get(), N, HandOut);
      HPP_CHECK(cudaGetLastError());
    };
    auto HandSync = [&] {
      Hand();
      HPP_CHECK(cudaStreamSynchronize(0));
    };
    // The generated kernel itself, launched as the hand-written one is:
    // what is left between it and "hpp reduceSum" is the launch path.
    float *RawOut = nullptr;
    HPP_CHECK(cudaMalloc(&RawOut, sizeof(float)));
    const hpp::Range<1, 1> RawRange(hpp::Range<1>(HandGroups * GroupSize),
                                    hpp::Range<1>(GroupSize));
    auto Raw = [&] {
      HPP_CHECK(cudaMemsetAsync(RawOut, 0, sizeof(float), 0));
      HPP_GENERATED_KERNEL<<<HandGroups, GroupSize>>>(
          RawRange, In, N, hpp::Pointer<float>(RawOut, 1));
      HPP_CHECK(cudaGetLastError());
    };
    auto RawSync = [&] {
      Raw();
      HPP_CHECK(cudaStreamSynchronize(0));
    };
    auto CubSync = [&] {
      Cub();
      HPP_CHECK(cudaStreamSynchronize(0));
    };
    // The runtime's own reduction (hpp/core/algorithms.h), blocking.
    float RuntimeSum = 0;
    auto Runtime = [&] { RuntimeSum = hpp::reduce(In, N); };

    struct Version {
      const char *Name;
      std::function<void()> Call;
      double BytesMoved;
      std::vector<double> Ms;
    };
    std::vector<Version> Versions = {
        {"cub::DeviceReduce::Sum   ", Cub, Bytes, {}},
        {"cudaMemcpyAsync D2D      ", Copy, 2 * Bytes, {}},
        {"hand-written CUDA        ", Hand, Bytes, {}},
        {"hand-written CUDA + sync ", HandSync, Bytes, {}},
        {"generated kernel, raw    ", Raw, Bytes, {}},
        {"generated kernel + sync  ", RawSync, Bytes, {}},
        {"cub + sync               ", CubSync, Bytes, {}},
        {"hpp::reduce (runtime)    ", Runtime, Bytes, {}},
        {"hpp reduceSum (rewritten)", Gen, Bytes, {}}};

    const L2Flush Flush(Prop);
    cudaEvent_t Start, Stop;
    HPP_CHECK(cudaEventCreate(&Start));
    HPP_CHECK(cudaEventCreate(&Stop));
    benchInterleave(Versions, WarmUp, Runs, [&](Version &V) {
      return benchTimeMs(Flush, Start, Stop, V.Call);
    });

    // The sums of the last runs against a double sum on the host.
    float CubSum = 0, HandSum = 0;
    HPP_CHECK(
        cudaMemcpy(&CubSum, CubOut, sizeof(float), cudaMemcpyDeviceToHost));
    HPP_CHECK(
        cudaMemcpy(&HandSum, HandOut, sizeof(float), cudaMemcpyDeviceToHost));
    const float GenSum = Sum[0];
    double Reference = 0;
    for (std::size_t K = 0; K < N; ++K)
      Reference += benchValue(K);
    const double CubErr = std::fabs(CubSum - Reference) / Reference;
    const double HandErr = std::fabs(HandSum - Reference) / Reference;
    const double GenErr = std::fabs(GenSum - Reference) / Reference;
    float RawSum = 0;
    HPP_CHECK(
        cudaMemcpy(&RawSum, RawOut, sizeof(float), cudaMemcpyDeviceToHost));
    const double RawErr = std::fabs(RawSum - Reference) / Reference;
    const double RuntimeErr = std::fabs(RuntimeSum - Reference) / Reference;
    const bool RuntimeBits =
        RuntimeSum ==
        hpp::detail::refReduce(In.get(), N, 0.0f, hpp::Plus<float>());
    const bool Ok = CubErr < 1e-5 && HandErr < 1e-5 && GenErr < 1e-5 &&
                    RawErr < 1e-5 && RuntimeErr < 1e-5 && RuntimeBits;

    const double CubGBs = Bytes / (benchMedian(Versions[0].Ms) * 1e-3) * 1e-9;
    for (const Version &V : Versions) {
      const double Med = benchMedian(V.Ms);
      const double GBs = V.BytesMoved / (Med * 1e-3) * 1e-9;
      std::printf("%s: median %.4f ms, %7.1f GB/s%s, ratio to CUB %.4f\n",
                  V.Name, Med, GBs,
                  V.BytesMoved > Bytes ? " (read + write)" : "", GBs / CubGBs);
    }
    std::printf("sums: reference %.10g, cub %.10g (relative error %.3g), hand "
                "%.10g (%.3g), hpp %.10g (%.3g): %s\n",
                Reference, double(CubSum), CubErr, double(HandSum), HandErr,
                double(GenSum), GenErr, Ok ? "OK" : "MISMATCH");
    std::printf("generated kernel raw %.10g (%.3g); hpp::reduce %.10g (%.3g), "
                "%s the CPU reference's bits\n",
                double(RawSum), RawErr, double(RuntimeSum), RuntimeErr,
                RuntimeBits ? "equal to" : "NOT EQUAL to");

    HPP_CHECK(cudaEventDestroy(Start));
    HPP_CHECK(cudaEventDestroy(Stop));
    HPP_CHECK(cudaFree(Temp));
    HPP_CHECK(cudaFree(CubOut));
    HPP_CHECK(cudaFree(HandOut));
    HPP_CHECK(cudaFree(RawOut));
    HPP_CHECK(cudaFree(CopyDst));
    hpp::deallocate(Sum);
    hpp::deallocate(In);
    return Ok ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
