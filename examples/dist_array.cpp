//===- examples/dist_array.cpp - Tiled matrix multiply with a DistArray ---===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// C = A * B for n x n matrices of doubles, in work-groups of T x T
/// work-items, one per element of C. A DistArray holds two regions of
/// T * T doubles: the work-group's tile of A and its tile of B (GPU shared
/// memory). For each step along k the group loads both tiles together,
/// waits at the work-group barrier (Segment::barrier), multiplies from the
/// tiles, and waits again before the next step overwrites them.
///
/// Partial tiles (n not a multiple of T): the trailing work-items of a
/// work-group at the matrix edge do not run the body (spec 1.2), so they
/// cannot load their tile elements. The work-items that run load the whole
/// tile between them instead, in strides of the running part of the group,
/// and put 0 where a tile reaches past the matrix; every work-item that runs
/// reaches every barrier, and only they write C, inside the matrix.
///
/// The matrices hold small integers, so every sum is exact and the result
/// is compared exactly with plain C++ loops.
///
/// Usage: dist_array   (prints one line per size; exit status 0 when every
/// result matches)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace hpp;

static int Failures = 0;

/// C = A * B, n x n, row-major, in T x T tiles.
static void tiledMatmul(Pointer<double> A, Pointer<double> B, Pointer<double> C,
                        std::size_t n, std::size_t T) {
  DistArray<double> tiles;
  Region<double> tileA = tiles.allocRegion(T * T);
  Region<double> tileB = tiles.allocRegion(T * T);
  parallelFor(Range<2, 2>(Range<2>(n, n), Range<2>(T, T)), tiles,
              [=](Index<2, 2> i, BoundDistArray<double> a) __device(hpp) {
                Segment<double> as = a(tileA), bs = a(tileB);
                // X is the column of C, Y the row.
                std::size_t lx = i.getLocalX(), ly = i.getLocalY();
                std::size_t col0 = i.getGroupX() * T, row0 = i.getGroupY() * T;
                // The running part of the group: wx x wy work-items.
                std::size_t wx = n - col0 < T ? n - col0 : T;
                std::size_t wy = n - row0 < T ? n - row0 : T;
                double sum = 0.0;
                for (std::size_t k0 = 0; k0 < n; k0 += T) {
                  for (std::size_t y = ly; y < T; y += wy)
                    for (std::size_t x = lx; x < T; x += wx) {
                      std::size_t ar = row0 + y, ac = k0 + x;
                      std::size_t br = k0 + y, bc = col0 + x;
                      as[y * T + x] = ar < n && ac < n ? A[ar * n + ac] : 0.0;
                      bs[y * T + x] = br < n && bc < n ? B[br * n + bc] : 0.0;
                    }
                  as.barrier(); // both tiles loaded
                  for (std::size_t k = 0; k < T; ++k)
                    sum += as[ly * T + k] * bs[k * T + lx];
                  as.barrier(); // everyone is done with the tiles
                }
                C[i.getY() * n + i.getX()] = sum;
              });
}

static void run(std::size_t n, std::size_t T) {
  Pointer<double> A = allocate<double>(n * n), B = allocate<double>(n * n),
                  C = allocate<double>(n * n);
  for (std::size_t I = 0; I != n * n; ++I) {
    A[I] = static_cast<double>(static_cast<int>(I * 7 % 11) - 5);
    B[I] = static_cast<double>(static_cast<int>(I * 5 % 13) - 6);
  }
  tiledMatmul(A, B, C, n, T);
  long long Checksum = 0;
  int Wrong = 0;
  for (std::size_t R = 0; R != n; ++R)
    for (std::size_t Col = 0; Col != n; ++Col) {
      double Want = 0.0;
      for (std::size_t K = 0; K != n; ++K)
        Want += A[R * n + K] * B[K * n + Col];
      double Got = C[R * n + Col];
      if (Got != Want && Wrong++ < 10)
        std::printf("MISMATCH n=%zu at (%zu,%zu): %g, want %g\n", n, R, Col,
                    Got, Want);
      // Got is NaN where a tile element was read before it was written.
      long long Value = std::isfinite(Got) ? static_cast<long long>(Got) : 0;
      Checksum += Value * static_cast<long long>((R * n + Col) % 97 + 1);
    }
  Failures += Wrong;
  std::printf("tiled-matmul n=%zu tile=%zux%zu checksum=%lld %s\n", n, T, T,
              Checksum, Wrong ? "FAILED" : "verified");
  deallocate(A);
  deallocate(B);
  deallocate(C);
}

int main() {
  run(64, 16);
  run(50, 16); // partial tiles: 2 of 16 columns and rows at the edges
  run(37, 8);  // partial tiles: 25 of the corner group's 64 work-items run
  run(20, 32); // one work-group of 1024, 400 of whose work-items run
  return Failures ? 1 : 0;
}
