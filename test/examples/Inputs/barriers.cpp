//===- test/examples/Inputs/barriers.cpp - Barrier objects on the CPU -----===//
//
// Part of hpp-rewrite. Input of barriers.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::Barrier across work-groups and __gpu_sync on the CPU reference
/// runtime (the paper's work-group examples are examples/barrier_paper.cpp),
/// each checked against plain C++:
///   launch-loop  work-items run a data-dependent number of steps of a
///             neighbour exchange with one barrier for all work-items of
///             the launch, then skip();
///   gpu-sync  stencil steps separated by __gpu_sync.
/// With an argument, runs a launch that must throw hpp::RuntimeError:
///   deadlock | partial | rejoin | shuffle | host | launch-deadlock | resident
///   (barriers.test finds the lines by their ERROR- comments).
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstring>
#include <vector>

using namespace hpp;

static int Failures = 0;

static void check(bool Ok, const char *What, std::size_t I) {
  if (!Ok && Failures++ < 10)
    std::printf("MISMATCH %s at %zu\n", What, I);
}

/// Steps work-item \p L of a group takes in the loop example.
static int stepsOf(std::size_t L) { return static_cast<int>(L * 7 % 5) + 1; }

/// The loop example with one barrier for the whole launch: neighbours
/// across work-group boundaries, work-items leaving at different steps.
static void launchLoopExample(std::size_t N, std::size_t G) {
  Pointer<long long> A = allocate<long long>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<long long>(I % 11);
  std::vector<long long> Ref(A.get(), A.get() + N);
  Barrier B(N);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                std::size_t g = i.getX();
                for (int s = 0; s < stepsOf(g); ++s) {
                  long long next = A[(g + 1) % N];
                  B.wait();
                  A[g] += next;
                  B.wait();
                }
                B.skip();
              });
  for (int S = 0; S < 5; ++S) {
    std::vector<long long> Old = Ref;
    for (std::size_t I = 0; I != N; ++I)
      if (S < stepsOf(I))
        Ref[I] = Old[I] + Old[(I + 1) % N];
  }
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I) {
    check(A[I] == Ref[I], "launch-loop", I);
    Sum += A[I];
  }
  std::printf("launch-loop n=%zu group=%zu sum=%lld %s\n", N, G, Sum,
              Failures ? "FAILED" : "verified");
  deallocate(A);
}

/// Jacobi-style steps separated by __gpu_sync (a partial last work-group:
/// its work-items outside the range do not take part).
static void gpuSyncExample(std::size_t N, std::size_t G, int Steps) {
  Pointer<long long> A = allocate<long long>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<long long>(I % 7);
  std::vector<long long> Ref(A.get(), A.get() + N);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=](Index<1, 1> i) __device(hpp) {
                std::size_t g = i.getX();
                for (int s = 0; s < Steps; ++s) {
                  long long left = A[(g + N - 1) % N], right = A[(g + 1) % N];
                  __gpu_sync();
                  A[g] = (left + right + A[g]) % 1000003;
                  __gpu_sync();
                }
              });
  for (int S = 0; S < Steps; ++S) {
    std::vector<long long> Old = Ref;
    for (std::size_t I = 0; I != N; ++I)
      Ref[I] = (Old[(I + N - 1) % N] + Old[(I + 1) % N] + Old[I]) % 1000003;
  }
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I) {
    check(A[I] == Ref[I], "gpu-sync", I);
    Sum += A[I];
  }
  std::printf("gpu-sync n=%zu group=%zu steps=%d sum=%lld %s\n", N, G, Steps,
              Sum, Failures ? "FAILED" : "verified");
  deallocate(A);
}

static int errors(const char *Mode) {
  try {
    Barrier B(64); // ERROR-BARRIER-LINE
    Pointer<int> P = allocate<int>(128);
    if (!std::strcmp(Mode, "host"))
      B.wait(); // ERROR-HOST-LINE
    // "partial": a last work-group of 36 work-items in range; the 28 past
    // the end never run the body, so never arrive.
    std::size_t N = !std::strcmp(Mode, "partial") ? 100 : 128;
    parallelFor(Range<1, 1>(Range<1>(N), Range<1>(64)),
                [=, &B](Index<1, 1> i) __device(hpp) {
                  std::size_t l = i.getLocalX();
                  if (!std::strcmp(Mode, "deadlock")) {
                    if (l == 5)
                      return; // leaves without skip()
                    B.wait(); // ERROR-DEADLOCK-LINE
                  } else if (!std::strcmp(Mode, "partial")) {
                    B.wait(); // ERROR-PARTIAL-LINE
                  } else if (!std::strcmp(Mode, "rejoin")) {
                    if (l == 7)
                      B.skip();
                    B.wait(); // ERROR-REJOIN-LINE
                  } else if (!std::strcmp(Mode, "shuffle")) {
                    // Half the mvector at the barrier, half at a shuffle.
                    if (l < 16)
                      B.wait(); // ERROR-PARKED-LINE
                    else
                      P[i.getX()] = __shfl_xor_sync(~0ull, int(l), 1); // ERROR-SHUFFLE-LINE
                  }
                  P[i.getX()] = 1;
                });
    if (!std::strcmp(Mode, "launch-deadlock") ||
        !std::strcmp(Mode, "resident")) {
      bool Leave = !std::strcmp(Mode, "launch-deadlock");
      parallelFor(Range<1, 1>(Range<1>(256), Range<1>(64)),
                  [=](Index<1, 1> i) __device(hpp) {
                    if (Leave && i.getX() == 200)
                      return; // leaves without reaching __gpu_sync
                    __gpu_sync(); // ERROR-GPU-SYNC-LINE
                  });
    }
    deallocate(P);
    std::printf("%s: no error\n", Mode);
    return 0;
  } catch (const RuntimeError &E) {
    std::printf("%s: error: %s\n", Mode, E.what());
    return 1;
  }
}

int main(int Argc, char **Argv) {
  if (Argc > 1)
    return errors(Argv[1]);
  launchLoopExample(1024, 64);
  launchLoopExample(300, 128);
  gpuSyncExample(1000, 64, 6);
  gpuSyncExample(4096, 256, 3);
  return Failures ? 1 : 0;
}
