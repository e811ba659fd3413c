//===- examples/device_matmul.cpp - Matmul by row blocks on every device --===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The HPP paper's task matmul, C = A * B, split by row blocks over every
/// device of the platform (docs/devices.md). Device d gets its rows of A
/// and all of B, each copied there by copyAsync; its Task is enqueued on d
/// after both copies (the join `fa && fb`), and its rows of C are copied
/// back after the task. The host waits once, for the last copies. Then two
/// independent pipelines, each a chain of three tasks on its own device
/// (the first and the last), run at the same time.
///
/// The matrices hold small integers, so every sum is exact: the results are
/// compared exactly with plain C++ loops, and the output is the same for
/// any number of devices (HPP_CPU_DEVICES=N on the CPU runtimes).
///
/// Usage: device_matmul [n]   (n defaults to 48)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

using namespace hpp;

static int Failures = 0;

/// One device's share of the product: its rows [Row0, Row0 + Rows) of C.
struct Block {
  Device On;
  std::size_t Row0 = 0, Rows = 0;
  Pointer<double> A, B, C;
};

/// C = A * B with the rows split over every device.
static void matmulByRows(Pointer<double> A, Pointer<double> B,
                         Pointer<double> C, int n) {
  const std::vector<Device> Devices = getDevices();
  const std::size_t N = static_cast<std::size_t>(n);
  const std::size_t Per = (N + Devices.size() - 1) / Devices.size();
  std::vector<Block> Blocks;
  std::vector<Future<void>> Done;
  for (Device D : Devices) {
    Block K;
    K.On = D;
    K.Row0 = Blocks.size() * Per;
    K.Rows = K.Row0 < N ? std::min(Per, N - K.Row0) : 0;
    if (K.Rows == 0)
      break;
    K.A = allocate<double>(K.Rows * N, D);
    K.B = allocate<double>(N * N, D);
    K.C = allocate<double>(K.Rows * N, D);
    Future<void> Fa = copyAsync(K.A, 0, A, K.Row0 * N, K.Rows * N);
    Future<void> Fb = copyAsync(K.B, 0, B, 0, N * N);
    Pointer<double> Ad = K.A, Bd = K.B, Cd = K.C;
    // The paper's task on this device's rows: X is the column, Y the row.
    Task<void, Index<2>> Rows([=](Index<2> index) __device(hpp) {
      int i = static_cast<int>(index.getY());
      int j = static_cast<int>(index.getX());
      double sum = 0.0;
      for (int k = 0; k < n; ++k)
        sum += Ad[i * n + k] * Bd[k * n + j];
      Cd[i * n + j] = sum;
    });
    Future<void> Product = Rows.enqueue(D, Range<2>(N, K.Rows), Fa && Fb);
    Done.push_back(copyAsync(C, K.Row0 * N, K.C, 0, K.Rows * N, Product));
    Blocks.push_back(K);
  }
  for (Future<void> &F : Done)
    F.wait();
  for (Block &K : Blocks) {
    deallocate(K.A);
    deallocate(K.B);
    deallocate(K.C);
  }
}

/// Checks \p C against the product of \p A and \p B computed with plain
/// C++ loops and prints one line.
static void check(Pointer<double> A, Pointer<double> B, Pointer<double> C,
                  int n) {
  double Checksum = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double Sum = 0.0;
      for (int k = 0; k < n; ++k)
        Sum += A[i * n + k] * B[k * n + j];
      Checksum += C[i * n + j];
      if (C[i * n + j] != Sum) {
        std::printf("device-matmul n=%d mismatch at row %d column %d: got "
                    "%.17g, expected %.17g\n",
                    n, i, j, C[i * n + j], Sum);
        ++Failures;
        return;
      }
    }
  std::printf("device-matmul n=%d checksum=%.17g verified\n", n, Checksum);
}

/// A pipeline of three tasks on device \p D over \p X: x = x * 3, then
/// x = x + Seed, then the value task returning x * x; each after the last.
static Future<std::vector<long>> pipeline(Device D, Pointer<long> X,
                                          std::size_t Count, long Seed) {
  Task<void, Index<1>> Triple([=](Index<1> i) __device(hpp) { X[i] *= 3; });
  Task<void, Index<1>> Shift([=](Index<1> i) __device(hpp) { X[i] += Seed; });
  Task<long, Index<1>> Square([=](Index<1> i)
                                  __device(hpp) { return X[i] * X[i]; });
  Future<void> F1 = Triple.enqueue(D, Range<1>(Count));
  Future<void> F2 = Shift.enqueue(D, Range<1>(Count), F1);
  return Square.enqueue(D, Range<1>(Count), F2);
}

/// Two pipelines at once, on the first and on the last device.
static void twoPipelines(std::size_t Count) {
  const Device First = getDevices().front(), Last = getDevices().back();
  Pointer<long> X = allocate<long>(Count, First),
                Y = allocate<long>(Count, Last);
  for (std::size_t e = 0; e < Count; ++e) {
    X[e] = static_cast<long>(e);
    Y[e] = static_cast<long>(Count - e);
  }
  Future<std::vector<long>> Fx = pipeline(First, X, Count, 5);
  Future<std::vector<long>> Fy = pipeline(Last, Y, Count, -7);
  std::pair<std::vector<long>, std::vector<long>> R = (Fx && Fy).get();
  long Sum = 0;
  bool Ok = R.first.size() == Count && R.second.size() == Count;
  for (std::size_t e = 0; Ok && e < Count; ++e) {
    const long Ex = static_cast<long>(e) * 3 + 5;
    const long Ey = static_cast<long>(Count - e) * 3 - 7;
    Ok = R.first[e] == Ex * Ex && R.second[e] == Ey * Ey;
    Sum += R.first[e] + R.second[e];
  }
  if (!Ok)
    ++Failures;
  std::printf("two-pipelines count=%zu sum=%ld %s\n", Count, Sum,
              Ok ? "verified" : "FAILED");
  deallocate(X);
  deallocate(Y);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 48;
  if (n <= 0 || argc > 2) {
    std::fprintf(stderr, "usage: device_matmul [n]\n");
    return 2;
  }
  const std::size_t Count = static_cast<std::size_t>(n) * n;
  Pointer<double> A = allocate<double>(Count), B = allocate<double>(Count),
                  C = allocate<double>(Count);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      A[i * n + j] = (i * 3 + j * 7) % 11 - 3;
      B[i * n + j] = (i * 5 + j * 2) % 13 - 4;
      C[i * n + j] = -1.0;
    }
  matmulByRows(A, B, C, n);
  check(A, B, C, n);
  twoPipelines(Count);
  deallocate(A);
  deallocate(B);
  deallocate(C);
  return Failures ? 1 : 0;
}
