//===- bench/matmul_cuda.cu - Paper matmul: hand-written CUDA vs rewritten
//-===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Times the naive matmul of doubles (one thread per output element, 2D grid
/// of 16x16 blocks, C[i*n+j] = sum_k A[i*n+k] * B[k*n+j], j = x, i = y)
/// written by hand in CUDA against the same algorithm as rewritten by
/// hpp-rewrite, in the same process, on the same managed buffers.
///
/// The rewritten source is #included; name it with HPP_GENERATED (its main
/// is renamed away). It must define
///   void matmul(hpp::Pointer<double>, hpp::Pointer<double>,
///               hpp::Pointer<double>, int);
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include -I . \
///        -DHPP_GENERATED='"gen/matmul.cu"' bench/matmul_cuda.cu -o matmul
///   ./matmul [n=2048] [runs=20]
///
/// (HPP_GENERATED is an #include path: relative to bench/ or an -I
/// directory, or absolute.) The runtime prefetches the generated version's
/// Pointer arguments before every launch unless HPP_PREFETCH says otherwise
/// (runtime/hpp/launch.h); the hand-written version prefetches nothing.
///
/// Each timed run is std::chrono around the call including the device
/// synchronization (parallelFor blocks), after warm-up; the two versions are
/// interleaved, alternating which goes first. Prints the medians, the ratio
/// hand/generated (>= 1 means the generated code is as fast), and checks the
/// two results against each other and a few elements against the CPU.
/// Exit status 0 only when the results check.
///
//===----------------------------------------------------------------------===//

#ifndef HPP_GENERATED
#define HPP_GENERATED "matmul_standin.cu"
#endif

#define main hpp_generated_main
#include HPP_GENERATED
#undef main

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

/// The hand-written kernel: what a CUDA programmer writes for the paper's
/// naive algorithm.
__global__ void matmulHand(const double *A, const double *B, double *C, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    double Sum = 0;
    for (int k = 0; k < n; ++k)
      Sum += A[i * n + k] * B[k * n + j];
    C[i * n + j] = Sum;
  }
}

static void matmulHandLaunch(const double *A, const double *B, double *C,
                             int n) {
  dim3 Block(16, 16);
  dim3 Grid((n + 15) / 16, (n + 15) / 16);
  matmulHand<<<Grid, Block>>>(A, B, C, n);
  HPP_CHECK(cudaGetLastError());
  HPP_CHECK(cudaDeviceSynchronize());
}

template <class F> static double timeMs(F &&Call) {
  auto Start = std::chrono::steady_clock::now();
  Call();
  HPP_CHECK(cudaDeviceSynchronize());
  auto End = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(End - Start).count();
}

static double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t M = V.size() / 2;
  return V.size() % 2 ? V[M] : 0.5 * (V[M - 1] + V[M]);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
  const int Runs = argc > 2 ? std::atoi(argv[2]) : 20;
  const int WarmUp = 3;
  if (n <= 0 || Runs <= 0) {
    std::fprintf(stderr, "usage: %s [n>0] [runs>0]\n", argv[0]);
    return 2;
  }
  try {
    int Dev = 0;
    cudaDeviceProp Prop;
    HPP_CHECK(cudaGetDevice(&Dev));
    HPP_CHECK(cudaGetDeviceProperties(&Prop, Dev));
    std::printf("device: %s (%d SMs), n = %d, %d timed runs each after %d "
                "warm-up\n",
                Prop.name, Prop.multiProcessorCount, n, Runs, WarmUp);
    const char *Prefetch = std::getenv("HPP_PREFETCH");
    std::printf("generated source: %s; HPP_PREFETCH=%s\n", HPP_GENERATED,
                Prefetch && *Prefetch ? Prefetch : "first (default)");

    const size_t N2 = size_t(n) * n;
    hpp::Pointer<double> A = hpp::allocate<double>(N2);
    hpp::Pointer<double> B = hpp::allocate<double>(N2);
    hpp::Pointer<double> CHand = hpp::allocate<double>(N2);
    hpp::Pointer<double> CGen = hpp::allocate<double>(N2);
    for (size_t K = 0; K < N2; ++K) {
      A[K] = double((K * 7) % 17) / 16.0 - 0.5;
      B[K] = double((K * 5) % 13) / 8.0 - 0.75;
    }

    auto Hand = [&] { matmulHandLaunch(A.get(), B.get(), CHand.get(), n); };
    auto Gen = [&] { matmul(A, B, CGen, n); };
    for (int R = 0; R < WarmUp; ++R) {
      Hand();
      Gen();
    }
    std::vector<double> HandMs, GenMs;
    for (int R = 0; R < Runs; ++R) {
      if (R % 2 == 0) {
        HandMs.push_back(timeMs(Hand));
        GenMs.push_back(timeMs(Gen));
      } else {
        GenMs.push_back(timeMs(Gen));
        HandMs.push_back(timeMs(Hand));
      }
    }

    // Results: the two versions against each other, a few elements against
    // the CPU.
    double MaxDiff = 0;
    bool Identical = true;
    for (size_t K = 0; K < N2; ++K) {
      MaxDiff = std::max(MaxDiff, std::fabs(CHand[K] - CGen[K]));
      Identical = Identical && CHand[K] == CGen[K];
    }
    const int Spots[][2] = {
        {0, 0}, {n - 1, n - 1}, {n / 2, n / 3}, {n / 7, n - 1}, {n - 1, 0}};
    double MaxSpotErr = 0;
    for (const auto &S : Spots) {
      const int I = S[0], J = S[1];
      double Ref = 0;
      for (int K = 0; K < n; ++K)
        Ref += A[size_t(I) * n + K] * B[size_t(K) * n + J];
      const double Scale = std::max(1.0, std::fabs(Ref));
      MaxSpotErr = std::max({MaxSpotErr,
                             std::fabs(CHand[size_t(I) * n + J] - Ref) / Scale,
                             std::fabs(CGen[size_t(I) * n + J] - Ref) / Scale});
    }
    const bool Ok = MaxDiff <= 1e-9 * n && MaxSpotErr <= 1e-10 * n;

    const double HandMed = median(HandMs), GenMed = median(GenMs);
    const double Gflop = 2.0 * double(n) * n * n * 1e-9;
    std::printf("hand-written CUDA: median %.3f ms (%.1f GFLOP/s)\n", HandMed,
                Gflop / (HandMed * 1e-3));
    std::printf("hpp-rewrite      : median %.3f ms (%.1f GFLOP/s)\n", GenMed,
                Gflop / (GenMed * 1e-3));
    std::printf("ratio hand/generated = %.4f\n", HandMed / GenMed);
    std::printf("results: %s (hand vs generated %s, max |diff| %.3g; "
                "max relative error vs CPU on %zu elements %.3g)\n",
                Ok ? "OK" : "MISMATCH",
                Identical ? "bitwise identical" : "differ", MaxDiff,
                sizeof(Spots) / sizeof(Spots[0]), MaxSpotErr);

    hpp::deallocate(CGen);
    hpp::deallocate(CHand);
    hpp::deallocate(B);
    hpp::deallocate(A);
    return Ok ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
