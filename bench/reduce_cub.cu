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
///    (the CUDA-way warp code turned width-portable).
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
/// interleaved; every run is timed with cudaEvents on the null stream
/// around the whole call: for CUB the call (its two kernels), for memcpy
/// the copy, for hpp a cudaMemsetAsync of the accumulator plus reduceSum
/// (one launch; parallelFor waits for it, so the stop event also counts the
/// host's wake-up after the kernel, a few microseconds).
///
/// Prints the medians, GB/s (10^9 bytes/s; bytes read for the reductions,
/// bytes read + written for the copy), each one's ratio to CUB (> 1:
/// faster than CUB), and the sums with their relative error against the
/// reference. Exit status 0 only when both reductions are within 1e-5.
///
//===----------------------------------------------------------------------===//

#include <cub/cub.cuh>

#ifndef HPP_GENERATED
#error "define HPP_GENERATED as the path of the rewritten warp_reduce source"
#endif

#define main hpp_generated_main
#include HPP_GENERATED
#undef main

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

/// Milliseconds between events recorded on the null stream around \p Call.
template <class F>
static double benchTimeMs(cudaEvent_t Start, cudaEvent_t Stop, F &&Call) {
  HPP_CHECK(cudaEventRecord(Start, 0));
  Call();
  HPP_CHECK(cudaEventRecord(Stop, 0));
  HPP_CHECK(cudaEventSynchronize(Stop));
  float Ms = 0;
  HPP_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
  return Ms;
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
    float *CopyDst = nullptr, *CubOut = nullptr;
    HPP_CHECK(cudaMalloc(&CopyDst, N * sizeof(float)));
    HPP_CHECK(cudaMalloc(&CubOut, sizeof(float)));
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

    cudaEvent_t Start, Stop;
    HPP_CHECK(cudaEventCreate(&Start));
    HPP_CHECK(cudaEventCreate(&Stop));
    for (int R = 0; R < WarmUp; ++R) {
      benchTimeMs(Start, Stop, Cub);
      benchTimeMs(Start, Stop, Copy);
      benchTimeMs(Start, Stop, Gen);
    }
    std::vector<double> CubMs, CopyMs, GenMs;
    for (int R = 0; R < Runs; ++R) {
      // Rotate which one goes first.
      for (int Slot = 0; Slot < 3; ++Slot)
        switch ((R + Slot) % 3) {
        case 0:
          CubMs.push_back(benchTimeMs(Start, Stop, Cub));
          break;
        case 1:
          CopyMs.push_back(benchTimeMs(Start, Stop, Copy));
          break;
        default:
          GenMs.push_back(benchTimeMs(Start, Stop, Gen));
          break;
        }
    }

    // The sums of the last runs against a double sum on the host.
    float CubSum = 0;
    HPP_CHECK(
        cudaMemcpy(&CubSum, CubOut, sizeof(float), cudaMemcpyDeviceToHost));
    const float GenSum = Sum[0];
    double Reference = 0;
    for (std::size_t K = 0; K < N; ++K)
      Reference += benchValue(K);
    const double CubErr = std::fabs(CubSum - Reference) / Reference;
    const double GenErr = std::fabs(GenSum - Reference) / Reference;
    const bool Ok = CubErr < 1e-5 && GenErr < 1e-5;

    const double CubMed = benchMedian(CubMs), CopyMed = benchMedian(CopyMs),
                 GenMed = benchMedian(GenMs);
    const double CubGBs = Bytes / (CubMed * 1e-3) * 1e-9;
    const double CopyGBs = 2 * Bytes / (CopyMed * 1e-3) * 1e-9;
    const double GenGBs = Bytes / (GenMed * 1e-3) * 1e-9;
    std::printf("cub::DeviceReduce::Sum  : median %.4f ms, %7.1f GB/s\n",
                CubMed, CubGBs);
    std::printf("cudaMemcpyAsync D2D     : median %.4f ms, %7.1f GB/s (read + "
                "write), ratio to CUB %.4f\n",
                CopyMed, CopyGBs, CopyGBs / CubGBs);
    std::printf("hpp reduceSum (rewritten): median %.4f ms, %7.1f GB/s, "
                "ratio to CUB %.4f\n",
                GenMed, GenGBs, GenGBs / CubGBs);
    std::printf("sums: reference %.10g, cub %.10g (relative error %.3g), hpp "
                "%.10g (relative error %.3g): %s\n",
                Reference, double(CubSum), CubErr, double(GenSum), GenErr,
                Ok ? "OK" : "MISMATCH");

    HPP_CHECK(cudaEventDestroy(Start));
    HPP_CHECK(cudaEventDestroy(Stop));
    HPP_CHECK(cudaFree(Temp));
    HPP_CHECK(cudaFree(CubOut));
    HPP_CHECK(cudaFree(CopyDst));
    hpp::deallocate(Sum);
    hpp::deallocate(In);
    return Ok ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
