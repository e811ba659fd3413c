//===- examples/barrier_paper.cpp - Barrier objects, the paper's examples -===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The three uses of hpp::Barrier the HPP paper gives, each in work-groups
/// with one barrier per work-group and checked against plain C++:
///  - loop: work-items run a data-dependent number of steps of a neighbour
///    exchange (two waits per step), and skip() the barrier when they leave
///    the loop, so those still looping are not held up;
///  - opaque: a library function that takes `Barrier &` and waits inside,
///    called on one side of a branch while the other side waits directly;
///  - two: producers arrive() on one barrier and wait() on another,
///    consumers the other way round, two rounds.
/// The loop runs once more with one barrier across the whole launch. No
/// portability layer has this: their barriers must be reached by every
/// work-item of the group. hpp-rewrite lowers them to cuda::barrier (CUDA)
/// or a shared-memory barrier (HIP) per work-group, and to a barrier in
/// device memory in a cooperative launch across work-groups.
///
/// Usage: barrier_paper   (prints one line per run; exit status 0 when
/// every result matches)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

static int Failures = 0;

static void check(bool Ok, const char *What, std::size_t I) {
  if (!Ok && Failures++ < 10)
    std::printf("MISMATCH %s at %zu\n", What, I);
}

/// Steps work-item \p L of a group takes in the loop example.
__device(hpp) inline int stepsOf(std::size_t L) { return static_cast<int>(L * 7 % 5) + 1; }

/// The loop with one barrier per \p Span consecutive work-items: a
/// work-group (Span = G) or the whole launch (Span = N, a barrier across
/// work-groups: a cooperative launch on GPUs).
static void loopExample(std::size_t N, std::size_t G, std::size_t Span) {
  Pointer<long long> A = allocate<long long>(N);
  for (std::size_t I = 0; I != N; ++I)
    A[I] = static_cast<long long>(I % 13);
  std::vector<long long> Ref(A.get(), A.get() + N);
  Barrier B(Span);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
                std::size_t k = i.getX() % Span, base = i.getX() - k;
                for (int s = 0; s < stepsOf(k); ++s) {
                  long long next = A[base + (k + 1) % Span];
                  B.wait(); // everyone has read
                  A[i.getX()] += next;
                  B.wait(); // everyone has written
                }
                B.skip();
              });
  for (std::size_t Base = 0; Base < N; Base += Span) {
    for (int S = 0; S < 5; ++S) {
      std::vector<long long> Old(Ref.begin() + Base,
                                 Ref.begin() + Base + Span);
      for (std::size_t K = 0; K != Span; ++K)
        if (S < stepsOf(K))
          Ref[Base + K] = Old[K] + Old[(K + 1) % Span];
    }
  }
  long long Sum = 0;
  for (std::size_t I = 0; I != N; ++I) {
    check(A[I] == Ref[I], "loop", I);
    Sum += A[I];
  }
  std::printf("%s n=%zu group=%zu sum=%lld %s\n",
              Span == G ? "loop" : "loop-launch", N, G, Sum,
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

int main() {
  loopExample(1024, 128, 128);
  loopExample(200, 100, 100); // a partial mvector at width 64
  loopExample(1000, 64, 1000); // across work-groups, a partial last one
  opaqueExample(1024, 256);
  opaqueExample(96, 96);
  twoBarriersExample(1024, 64);
  twoBarriersExample(512, 256);
  return Failures ? 1 : 0;
}
