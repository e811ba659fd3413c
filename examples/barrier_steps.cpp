//===- examples/barrier_steps.cpp - The paper's synthetic barrier benchmark
//===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The HPP paper's synthetic barrier benchmark: every work-item repeatedly
/// replaces its float by the mean of it and its right neighbour, reading
/// both before a barrier and writing after it, so each step needs two
/// synchronisations:
///  - group: the neighbour within the work-group (wrapping), one
///    `Barrier b(group)` per work-group, waited on by every work-item (so
///    hpp-rewrite makes it a hardware barrier on GPUs);
///  - gpu-sync: the neighbour in the whole array (wrapping), `__gpu_sync()`
///    across the launch (a cooperative launch on GPUs).
/// Each run is checked bit for bit against the same steps in plain C++ and
/// prints the sizes, a checksum of the array and "verified".
///
/// Usage: barrier_steps [steps=20] [n=4096] [group=256]
///   (the benchmark proper is 10,000 steps of 64 Ki work-items in groups of
///   256: docs/benchmarks.md; exit status 0 when every result matches)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace hpp;

static int Failures = 0;

/// The starting array.
static float initial(std::size_t I) { return static_cast<float>(I % 17); }

/// Checks \p A against \p Ref and prints the run's line.
static void report(const char *Name, const Pointer<float> &A,
                   const std::vector<float> &Ref, int Steps, std::size_t G) {
  double Sum = 0;
  std::size_t Bad = 0;
  for (std::size_t I = 0; I != Ref.size(); ++I) {
    Bad += A[I] != Ref[I];
    Sum += static_cast<double>(A[I]) * static_cast<double>(I % 7 + 1);
  }
  Failures += Bad != 0;
  std::printf("%s n=%zu group=%zu steps=%d checksum=%.6f %s\n", Name,
              Ref.size(), G, Steps, Sum, Bad ? "FAILED" : "verified");
}

static void groupSteps(std::size_t N, std::size_t G, int Steps) {
  Pointer<float> A = allocate<float>(N);
  std::vector<float> Ref(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = Ref[I] = initial(I);
  Barrier B(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                std::size_t l = i.getLocalX(), base = i.getX() - l;
                for (int s = 0; s < Steps; ++s) {
                  float mine = A[i.getX()], right = A[base + (l + 1) % G];
                  B.wait();
                  A[i.getX()] = (mine + right) * 0.5f;
                  B.wait();
                }
              });
  for (int S = 0; S < Steps; ++S)
    for (std::size_t Base = 0; Base < N; Base += G) {
      std::vector<float> Old(Ref.begin() + Base, Ref.begin() + Base + G);
      for (std::size_t L = 0; L != G; ++L)
        Ref[Base + L] = (Old[L] + Old[(L + 1) % G]) * 0.5f;
    }
  report("group", A, Ref, Steps, G);
  deallocate(A);
}

static void gpuSyncSteps(std::size_t N, std::size_t G, int Steps) {
  Pointer<float> A = allocate<float>(N);
  std::vector<float> Ref(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = Ref[I] = initial(I);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=](Index<1, 1> i) __device(hpp) {
                std::size_t x = i.getX();
                for (int s = 0; s < Steps; ++s) {
                  float mine = A[x], right = A[(x + 1) % N];
                  __gpu_sync();
                  A[x] = (mine + right) * 0.5f;
                  __gpu_sync();
                }
              });
  for (int S = 0; S < Steps; ++S) {
    std::vector<float> Old(Ref);
    for (std::size_t I = 0; I != N; ++I)
      Ref[I] = (Old[I] + Old[(I + 1) % N]) * 0.5f;
  }
  report("gpu-sync", A, Ref, Steps, G);
  deallocate(A);
}

int main(int argc, char **argv) {
  const int Steps = argc > 1 ? std::atoi(argv[1]) : 20;
  const std::size_t N = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 4096;
  const std::size_t G = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 256;
  if (Steps <= 0 || N == 0 || G == 0 || N % G != 0) {
    std::fprintf(stderr, "usage: barrier_steps [steps>0] [n>0] [group "
                         "dividing n]\n");
    return 2;
  }
  try {
    groupSteps(N, G, Steps);
    gpuSyncSteps(N, G, Steps);
    gpuSyncSteps(N - G / 2 - 1, G, Steps); // a partial last work-group
  } catch (const RuntimeError &E) {
    // E.g. a __gpu_sync launch too large to be resident at once.
    std::printf("error: %s\n", E.what());
    return 1;
  }
  return Failures ? 1 : 0;
}
