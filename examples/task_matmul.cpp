//===- examples/task_matmul.cpp - Matrix multiply as a task (HPP paper) ---===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// C = A * B for n x n matrices of doubles, written as the HPP paper writes
/// its task example: the body is a `Task<void, Index<2>>`, enqueued over
/// `Range<2>(n, n)` (one work-item per element of C), and the host waits
/// on the `Future<void>` that enqueue returns:
///
///   Task<void, Index<2>> task([=](Index<2> index) __device(hpp) { ... });
///   Future<void> future = task.enqueue(Range<2>(n, n));
///   future.wait();
///
/// Enqueue does not block: nothing is guaranteed to have run before the
/// wait. The program also multiplies a second pair of matrices with the
/// same task while the first product may still be running, and waits for
/// both. The matrices hold small integers, so every sum is exact and the
/// results are compared exactly with plain C++ loops.
///
/// Usage: task_matmul [n]   (n defaults to 64)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace hpp;

static int Failures = 0;

/// Checks \p C against the product of \p A and \p B computed with plain
/// C++ loops and prints one line for the case \p Name.
static void check(const char *Name, Pointer<double> A, Pointer<double> B,
                  Pointer<double> C, int n) {
  bool Ok = true;
  double Checksum = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double Sum = 0.0;
      for (int k = 0; k < n; ++k)
        Sum += A[i * n + k] * B[k * n + j];
      Checksum += C[i * n + j];
      if (C[i * n + j] != Sum && Ok) {
        std::printf("%s n=%d mismatch at row %d column %d: got %.17g, "
                    "expected %.17g\n",
                    Name, n, i, j, C[i * n + j], Sum);
        Ok = false;
      }
    }
  if (!Ok)
    ++Failures;
  else
    std::printf("%s n=%d checksum=%.17g verified\n", Name, n, Checksum);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 64;
  if (n <= 0 || argc > 2) {
    std::fprintf(stderr, "usage: task_matmul [n]\n");
    return 2;
  }

  std::size_t Count = static_cast<std::size_t>(n) * n;
  Pointer<double> A = allocate<double>(Count), B = allocate<double>(Count),
                  C = allocate<double>(Count);
  Pointer<double> A2 = allocate<double>(Count), B2 = allocate<double>(Count),
                  C2 = allocate<double>(Count);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      A[i * n + j] = (i * 3 + j * 7) % 11 - 3;
      B[i * n + j] = (i * 5 + j * 2) % 13 - 4;
      A2[i * n + j] = (i + j * 5) % 7 - 2;
      B2[i * n + j] = (i * 11 + j) % 9 - 5;
    }

  // The paper's task: X is the column j of C, Y the row i.
  Task<void, Index<2>> task([=](Index<2> index) __device(hpp) {
    int i = static_cast<int>(index.getY());
    int j = static_cast<int>(index.getX());
    double sum = 0.0;
    for (int k = 0; k < n; ++k)
      sum += A[i * n + k] * B[k * n + j];
    C[i * n + j] = sum;
  });
  Future<void> future = task.enqueue(Range<2>(n, n));
  future.wait();
  check("task-matmul", A, B, C, n);

  // Two products in flight at once: a task per pair, both enqueued before
  // either is waited on.
  Task<void, Index<2>> task2([=](Index<2> index) __device(hpp) {
    int i = static_cast<int>(index.getY());
    int j = static_cast<int>(index.getX());
    double sum = 0.0;
    for (int k = 0; k < n; ++k)
      sum += A2[i * n + k] * B2[k * n + j];
    C2[i * n + j] = sum;
  });
  for (std::size_t e = 0; e < Count; ++e)
    C[e] = -1.0;
  Future<void> first = task.enqueue(Range<2>(n, n));
  Future<void> second = task2.enqueue(Range<2>(n, n));
  second.wait();
  first.wait();
  check("task-matmul-first", A, B, C, n);
  check("task-matmul-second", A2, B2, C2, n);

  deallocate(A);
  deallocate(B);
  deallocate(C);
  deallocate(A2);
  deallocate(B2);
  deallocate(C2);
  return Failures ? 1 : 0;
}
