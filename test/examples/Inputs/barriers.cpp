//===- test/examples/Inputs/barriers.cpp - Barrier objects on the CPU -----===//
//
// Part of hpp-rewrite. Input of barriers.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The paper's three uses of hpp::Barrier on the CPU reference runtime,
/// each checked against plain C++:
///   loop      work-items run a data-dependent number of steps of a
///             neighbour exchange (two waits per step), then skip();
///   opaque    a library function that takes Barrier& and waits, called on
///             one side of a branch; the other side waits directly;
///   two       a producer half that arrive()s and a consumer half that
///             wait()s, on two barriers, two rounds;
///   launch-loop  the loop with one barrier for all work-items of the
///             launch (participants across work-groups);
///   gpu-sync  stencil steps separated by __gpu_sync.
/// With an argument, runs a launch that must throw hpp::RuntimeError:
///   deadlock | rejoin | shuffle | host | launch-deadlock | resident
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

static void loopExample(std::size_t N, std::size_t G) {
  Pointer<long long> A = allocate<long long>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<long long>(I % 13);
  std::vector<long long> Ref(A.get(), A.get() + N);
  Barrier B(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                std::size_t l = i.getLocalX(), base = i.getX() - l;
                for (int s = 0; s < stepsOf(l); ++s) {
                  long long next = A[base + (l + 1) % G];
                  B.wait(); // everyone has read
                  A[i.getX()] += next;
                  B.wait(); // everyone has written
                }
                B.skip();
              });
  for (std::size_t Base = 0; Base < N; Base += G) {
    for (int S = 0; S < 5; ++S) {
      std::vector<long long> Old(Ref.begin() + Base, Ref.begin() + Base + G);
      for (std::size_t L = 0; L != G; ++L)
        if (S < stepsOf(L))
          Ref[Base + L] = Old[L] + Old[(L + 1) % G];
    }
  }
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I) {
    check(A[I] == Ref[I], "loop", I);
    Sum += A[I];
  }
  std::printf("loop n=%zu group=%zu sum=%lld %s\n", N, G, Sum,
              Failures ? "FAILED" : "verified");
  deallocate(A);
}

/// A library routine that does not know who else takes part: doubles its
/// slot, waits, then reads the slot after it.
__device(hpp) long long doubleThenPeek(Barrier &B, Pointer<long long> P,
                                       std::size_t Slot, std::size_t Next) {
  P[Slot] *= 2;
  B.wait();
  return P[Next];
}

static void opaqueExample(std::size_t N, std::size_t G) {
  Pointer<long long> P = allocate<long long>(N), Out = allocate<long long>(N);
  for (std::size_t I = 0; I != N; ++I)
    P[I] = static_cast<long long>(I);
  Barrier B(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                std::size_t l = i.getLocalX(), base = i.getX() - l;
                std::size_t next = base + (l + 1) % G;
                if (l % 3 == 0) {
                  Out[i.getX()] = doubleThenPeek(B, P, i.getX(), next);
                } else {
                  P[i.getX()] += 1;
                  B.wait();
                  Out[i.getX()] = P[next];
                }
              });
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I) {
    std::size_t L = I % G, Next = I - L + (L + 1) % G;
    auto After = [](std::size_t K, std::size_t Lk) {
      return Lk % 3 == 0 ? 2 * (long long)K : (long long)K + 1;
    };
    check(P[I] == After(I, L), "opaque-own", I);
    check(Out[I] == After(Next, Next % G), "opaque-peek", I);
    Sum += Out[I];
  }
  std::printf("opaque n=%zu group=%zu sum=%lld %s\n", N, G, Sum,
              Failures ? "FAILED" : "verified");
  deallocate(P);
  deallocate(Out);
}

static void twoBarriersExample(std::size_t N, std::size_t G) {
  Pointer<int> Data = allocate<int>(N), Seen = allocate<int>(N);
  Barrier Full(G), Empty(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &Full, &Empty](Index<1, 1> i) __device(hpp) {
                std::size_t l = i.getLocalX(), base = i.getX() - l;
                bool producer = l < G / 2;
                int got = 0;
                for (int round = 1; round <= 2; ++round) {
                  if (producer) {
                    Data[i.getX()] = round * 1000 + int(l);
                    Full.arrive(); // data ready, do not wait
                    Empty.wait();  // until it has been read
                  } else {
                    Full.wait();
                    got += Data[base + l - G / 2];
                    Empty.arrive();
                  }
                }
                Seen[i.getX()] = got;
              });
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I) {
    std::size_t L = I % G;
    int Want = L < G / 2 ? 0 : 3000 + 2 * int(L - G / 2);
    check(Seen[I] == Want, "two-barriers", I);
    Sum += Seen[I];
  }
  std::printf("two n=%zu group=%zu sum=%lld %s\n", N, G, Sum,
              Failures ? "FAILED" : "verified");
  deallocate(Data);
  deallocate(Seen);
}

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
    parallelFor(Range<1, 1>(Range<1>(128), Range<1>(64)),
                [=, &B](Index<1, 1> i) __device(hpp) {
                  std::size_t l = i.getLocalX();
                  if (!std::strcmp(Mode, "deadlock")) {
                    if (l == 5)
                      return; // leaves without skip()
                    B.wait(); // ERROR-DEADLOCK-LINE
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
  loopExample(1024, 128);
  loopExample(200, 100); // a partial mvector at width 64
  opaqueExample(1024, 256);
  opaqueExample(96, 96);
  twoBarriersExample(1024, 64);
  twoBarriersExample(512, 256);
  launchLoopExample(1024, 64);
  launchLoopExample(300, 128);
  gpuSyncExample(1000, 64, 6);
  gpuSyncExample(4096, 256, 3);
  return Failures ? 1 : 0;
}
