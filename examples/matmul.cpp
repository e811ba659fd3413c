//===- examples/matmul.cpp - Naive matrix multiply (HPP paper) ------------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// C = A * B for n x n matrices of doubles, one work-item per element of C,
/// as in the HPP paper. The matrices hold small integers, so every sum is
/// exact and the result is compared exactly with plain C++ loops.
///
/// Usage: matmul [n] [--time R]   (n defaults to 96; --time R runs the
/// multiply R times after a warm-up and prints the median time).
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace hpp;

void matmul(Pointer<double> A, Pointer<double> B, Pointer<double> C, int n) {
  parallelFor(Range<2>(n, n), [=](Index<2> index) __device(hpp) {
    // X is the column j of C, Y the row i: C[i][j] is the dot product of
    // row i of A and column j of B.
    int i = static_cast<int>(index.getY());
    int j = static_cast<int>(index.getX());
    double sum = 0.0;
    for (int k = 0; k < n; ++k)
      sum += A[i * n + k] * B[k * n + j];
    C[i * n + j] = sum;
  });
}

int main(int argc, char **argv) {
  int n = 96;
  int runs = 0;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--time") == 0 && a + 1 < argc)
      runs = std::atoi(argv[++a]);
    else
      n = std::atoi(argv[a]);
  }
  if (n <= 0 || runs < 0) {
    std::fprintf(stderr, "usage: matmul [n] [--time R]\n");
    return 2;
  }

  std::size_t count = static_cast<std::size_t>(n) * n;
  Pointer<double> A = allocate<double>(count);
  Pointer<double> B = allocate<double>(count);
  Pointer<double> C = allocate<double>(count);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      A[i * n + j] = (i * 3 + j * 7) % 11 - 3;
      B[i * n + j] = (i * 5 + j * 2) % 13 - 4;
    }

  matmul(A, B, C, n);

  std::vector<double> expected(count);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int k = 0; k < n; ++k)
        sum += A[i * n + k] * B[k * n + j];
      expected[i * n + j] = sum;
    }

  int status = 0;
  double checksum = 0.0;
  for (std::size_t e = 0; e < count; ++e) {
    checksum += C[e];
    if (C[e] != expected[e] && status == 0) {
      std::printf("matmul n=%d mismatch at row %d column %d: got %.17g, "
                  "expected %.17g\n",
                  n, static_cast<int>(e / n), static_cast<int>(e % n), C[e],
                  expected[e]);
      status = 1;
    }
  }
  if (status == 0)
    std::printf("matmul n=%d checksum=%.17g verified\n", n, checksum);

  if (status == 0 && runs > 0) {
    matmul(A, B, C, n); // Warm-up.
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
      auto start = std::chrono::steady_clock::now();
      matmul(A, B, C, n);
      auto stop = std::chrono::steady_clock::now();
      ms.push_back(
          std::chrono::duration<double, std::milli>(stop - start).count());
    }
    std::sort(ms.begin(), ms.end());
    double median =
        runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
    std::printf("matmul n=%d runs=%d median_ms=%.3f\n", n, runs, median);
  }

  deallocate(A);
  deallocate(B);
  deallocate(C);
  return status;
}
