//===- examples/task_chain.cpp - A chain of dependent tasks ---------------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Five tasks, each enqueued after the previous one's future with
/// `t.enqueue(range, previousFuture)`, and only the last future waited
/// on. Every stage reads what earlier stages wrote, at other work-items'
/// positions, and one overwrites an array an earlier stage reads, so any
/// stage that ran early, late or overlapping its neighbour would give
/// different numbers:
///   fill     A[i] = f(i)
///   shift    B[i] = A[i] + A[(i + 1) % n]
///   mirror   C[i] = 3 * B[n - 1 - i] - A[i]          (2-D: rows of 50)
///   scatter  A[i] = C[i] + C[i * 7 % n]              (overwrites A)
///   collect  returns A[i] - B[(i + 3) % n]           (a value per item)
/// The last stage returns a long long per work-item, so its future is a
/// `Future<std::vector<long long>>`; its get() is the only wait. The whole
/// chain runs twice, with other data and work-groups (the second time a
/// partial last one), and is checked against plain C++.
///
/// Usage: task_chain [n]   (n defaults to 10000, a multiple of 50)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace hpp;

static int Failures = 0;

/// Width of the rows of the 2-D stage.
constexpr std::size_t RowLength = 50;

/// The chain in plain C++.
static std::vector<long long> reference(std::size_t n, long long Seed) {
  std::vector<long long> A(n), B(n), C(n), R(n);
  for (std::size_t i = 0; i != n; ++i)
    A[i] = static_cast<long long>((i * 37 + Seed) % 101) - 50;
  for (std::size_t i = 0; i != n; ++i)
    B[i] = A[i] + A[(i + 1) % n];
  for (std::size_t i = 0; i != n; ++i)
    C[i] = 3 * B[n - 1 - i] - A[i];
  for (std::size_t i = 0; i != n; ++i)
    A[i] = C[i] + C[i * 7 % n];
  for (std::size_t i = 0; i != n; ++i)
    R[i] = A[i] - B[(i + 3) % n];
  return R;
}

static void check(const char *Name, const std::vector<long long> &Got,
                  std::size_t n, long long Seed) {
  std::vector<long long> Want = reference(n, Seed);
  bool Ok = Got.size() == n;
  if (!Ok)
    std::printf("%s: %zu results, expected %zu\n", Name, Got.size(), n);
  long long Sum = 0;
  for (std::size_t i = 0; Ok && i != n; ++i) {
    Sum += Got[i];
    if (Got[i] != Want[i]) {
      std::printf("%s n=%zu mismatch at %zu: got %lld, expected %lld\n", Name,
                  n, i, Got[i], Want[i]);
      Ok = false;
    }
  }
  if (!Ok)
    ++Failures;
  else
    std::printf("%s n=%zu stages=5 sum=%lld verified\n", Name, n, Sum);
}

int main(int argc, char **argv) {
  long Arg = argc > 1 ? std::atol(argv[1]) : 10000;
  if (Arg <= 0 || Arg % static_cast<long>(RowLength) != 0 || argc > 2) {
    std::fprintf(stderr, "usage: task_chain [n]   (n a multiple of %zu)\n",
                 RowLength);
    return 2;
  }
  std::size_t n = static_cast<std::size_t>(Arg);
  Pointer<long long> A = allocate<long long>(n), B = allocate<long long>(n),
                     C = allocate<long long>(n);

  for (long long Seed = 0; Seed < 2; ++Seed) {
    bool Groups = Seed == 1; // the second run: Range<1,1> launches
    Task<void, Index<1>> fill([=](Index<1> i) __device(hpp) {
      A[i] = static_cast<long long>((i * 37 + Seed) % 101) - 50;
    });
    Task<void, Index<1>> shift([=](Index<1> i) __device(hpp) {
      B[i] = A[i] + A[(i + 1) % n];
    });
    Task<void, Index<2>> mirror([=](Index<2> p) __device(hpp) {
      std::size_t i = p.getX() + RowLength * p.getY();
      C[i] = 3 * B[n - 1 - i] - A[i];
    });
    Task<void, Index<1, 1>> scatter([=](Index<1, 1> i) __device(hpp) {
      A[i] = C[i] + C[i * 7 % n];
    });
    Task<long long, Index<1, 1>> collect(
        [=](Index<1, 1> i) __device(hpp) -> long long {
          return A[i] - B[(i + 3) % n];
        });

    // The range of the last two stages: work-groups of 50, or of 96 in the
    // second run (the last one partial unless n is a multiple of 96).
    Range<1, 1> Line(n, Groups ? 96 : 50);
    Future<void> f1 = fill.enqueue(Range<1>(n));
    Future<void> f2 = shift.enqueue(Range<1>(n), f1);
    Future<void> f3 = mirror.enqueue(Range<2>(RowLength, n / RowLength), f2);
    Future<void> f4 = scatter.enqueue(Line, f3);
    Future<std::vector<long long>> f5 = collect.enqueue(Line, f4);
    std::vector<long long> Result = f5.get(); // the only wait
    check(Groups ? "chain-groups" : "chain", Result, n, Seed);
  }

  deallocate(A);
  deallocate(B);
  deallocate(C);
  return Failures ? 1 : 0;
}
