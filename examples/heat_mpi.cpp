//===- examples/heat_mpi.cpp - 2-D heat equation over MPI ranks -----------===//
//
// Part of hpp-rewrite. A self-checking dialect program (MPI).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The 2-D heat equation, explicit 5-point stencil, on a rows x cols grid
/// split over the MPI ranks by rows (docs/devices.md, "More than one
/// machine: MPI"). The edges of the grid are fixed (a hot top edge, cold
/// other edges); the interior starts with a warm square and a small ripple.
///
/// Each rank holds its rows plus one halo row above and one below in a
/// `Pointer<float>` on its default device (`HPP_DEVICE=local-rank` gives
/// each rank of a node its own GPU). Every step exchanges the halo rows
/// with the neighbouring ranks (hpp::copy into page-locked host buffers
/// from allocateHost, MPI_Sendrecv on their `p.get()`, hpp::copy back;
/// `--direct` hands the grid's rows to MPI instead, after the parallelFor
/// that wrote them has returned), then a parallelFor computes
/// the rank's rows of the next grid into the second Pointer, and the two
/// are swapped. At the end rank 0 gathers the grid, runs the same
/// computation serially in plain C++ and compares every cell: on the CPU
/// the results are the same bit for bit (max_diff=0); a GPU may contract
/// a multiply and an add into an FMA, which the tolerance allows (1e-6 per
/// step: the update is a convex combination of the old values, so
/// rounding differences do not grow by more than a few ulps a step).
///
/// The output does not depend on the number of ranks but for its first
/// line, the ranks and the device each used (strong scaling: the grid is
/// fixed). The rows need not divide evenly: the first rows % ranks ranks
/// get one row more.
///
/// Usage: mpirun -np R heat_mpi [n] [steps] [--weak] [--time]
///                              [--no-verify] [--no-halo] [--direct]
///   n        the grid is n x n (default 64); with --weak, n rows per rank
///            and n columns: (n * R) x n (weak scaling)
///   steps    time steps (default 50)
///   --time   also print the wall time of the time steps (all ranks, from
///            a barrier before the first step to one after the last)
///   --no-verify  skip the serial check (big grids in benchmarks)
///   --direct     hand the grid's own rows to MPI (p.get() + offset)
///                instead of staging them in allocateHost buffers
///   --no-halo    skip the halo exchange (wrong with more than one rank:
///                shows that the check fails, "FAILED" and exit status 1)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

using namespace hpp;

/// The diffusion number of the explicit scheme (stable up to 0.25).
constexpr float Alpha = 0.2f;

/// The initial temperature of cell (\p i, \p j) of a \p Rows x \p Cols
/// grid: the top edge at 1, the other edges at 0 (both kept for every
/// step), inside a warm square over the middle third and a ripple of
/// multiples of 1/32 (all exact in float).
static float initialValue(int i, int j, int Rows, int Cols) {
  if (i == 0)
    return 1.0f;
  if (i == Rows - 1 || j == 0 || j == Cols - 1)
    return 0.0f;
  bool InSquare =
      3 * i >= Rows && 3 * i < 2 * Rows && 3 * j >= Cols && 3 * j < 2 * Cols;
  return (InSquare ? 0.75f : 0.0f) + ((i * 7 + j * 13) % 5) / 32.0f;
}

/// The same time steps on the whole grid, serially, in plain C++.
static std::vector<float> serialHeat(int Rows, int Cols, int Steps) {
  std::vector<float> Cur(static_cast<std::size_t>(Rows) * Cols), Next;
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < Cols; ++j)
      Cur[static_cast<std::size_t>(i) * Cols + j] =
          initialValue(i, j, Rows, Cols);
  Next = Cur;
  for (int s = 0; s < Steps; ++s) {
    for (int i = 1; i < Rows - 1; ++i)
      for (int j = 1; j < Cols - 1; ++j) {
        std::size_t k = static_cast<std::size_t>(i) * Cols + j;
        float c = Cur[k];
        Next[k] = c + Alpha * (Cur[k - Cols] + Cur[k + Cols] + Cur[k - 1] +
                               Cur[k + 1] - 4.0f * c);
      }
    std::swap(Cur, Next);
  }
  return Cur;
}

/// One time step of this rank's \p Count rows (global rows First to
/// First + Count - 1, buffer rows 1 to Count; rows 0 and Count + 1 are the
/// halos): \p Next from \p Cur. The grid's edges keep their values.
static void step(Pointer<float> Cur, Pointer<float> Next, int First, int Count,
                 int Rows, int Cols) {
  parallelFor(Range<2>(Cols, Count), [=](Index<2> Idx) __device(hpp) {
    int j = static_cast<int>(Idx.getX());
    int r = static_cast<int>(Idx.getY()) + 1;
    int i = First + r - 1;
    std::size_t k = static_cast<std::size_t>(r) * Cols + j;
    if (i == 0 || i == Rows - 1 || j == 0 || j == Cols - 1) {
      Next[k] = Cur[k];
    } else {
      float c = Cur[k];
      Next[k] = c + Alpha * (Cur[k - Cols] + Cur[k + Cols] + Cur[k - 1] +
                             Cur[k + 1] - 4.0f * c);
    }
  });
}

/// Sends this rank's first and last rows to the ranks above and below and
/// receives their boundary rows into the halo rows of \p Cur.
static void exchangeHalos(Pointer<float> Cur, int Count, int Cols, int Rank,
                          int Ranks) {
  int Up = Rank > 0 ? Rank - 1 : MPI_PROC_NULL;
  int Down = Rank < Ranks - 1 ? Rank + 1 : MPI_PROC_NULL;
  float *Base = Cur.get();
  std::size_t Row = static_cast<std::size_t>(Cols);
  // First row up, the row below from below.
  MPI_Sendrecv(Base + Row, Cols, MPI_FLOAT, Up, 0, Base + (Count + 1) * Row,
               Cols, MPI_FLOAT, Down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // Last row down, the row above from above.
  MPI_Sendrecv(Base + Count * Row, Cols, MPI_FLOAT, Down, 1, Base, Cols,
               MPI_FLOAT, Up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/// The staging rows of exchangeStaged, in page-locked host memory
/// (allocateHost): what goes up and down, what comes from above and from
/// below.
struct HaloRows {
  Pointer<float> SendUp, SendDown, FromAbove, FromBelow;
};

/// exchangeHalos through host buffers: the boundary rows are copied out of
/// \p Cur into them, MPI sends and receives them, and the received rows
/// are copied into \p Cur's halo rows. MPI touches only the buffers, so
/// the grid's managed pages stay on the device (handing the grid's rows to
/// MPI moves their pages to the host every step and the next kernel
/// faults them back: docs/benchmarks.md, "Several devices and MPI").
static void exchangeStaged(Pointer<float> Cur, const HaloRows &H, int Count,
                           int Cols, int Rank, int Ranks) {
  int Up = Rank > 0 ? Rank - 1 : MPI_PROC_NULL;
  int Down = Rank < Ranks - 1 ? Rank + 1 : MPI_PROC_NULL;
  std::size_t Row = static_cast<std::size_t>(Cols);
  if (Up != MPI_PROC_NULL)
    copy(H.SendUp, 0, Cur, Row, Row);
  if (Down != MPI_PROC_NULL)
    copy(H.SendDown, 0, Cur, Count * Row, Row);
  MPI_Sendrecv(H.SendUp.get(), Cols, MPI_FLOAT, Up, 0, H.FromBelow.get(), Cols,
               MPI_FLOAT, Down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(H.SendDown.get(), Cols, MPI_FLOAT, Down, 1, H.FromAbove.get(),
               Cols, MPI_FLOAT, Up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (Down != MPI_PROC_NULL)
    copy(Cur, (Count + 1) * Row, H.FromBelow, 0, Row);
  if (Up != MPI_PROC_NULL)
    copy(Cur, 0, H.FromAbove, 0, Row);
}

/// The first global row of rank \p R and its row count, for \p Rows rows
/// over \p Ranks ranks (the first Rows % Ranks ranks get one row more).
static std::pair<int, int> rowsOf(int R, int Rows, int Ranks) {
  int Base = Rows / Ranks, Extra = Rows % Ranks;
  return {R * Base + std::min(R, Extra), Base + (R < Extra ? 1 : 0)};
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank = 0, Ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Ranks);

  int N = 64, Steps = 50;
  bool Weak = false, Time = false, Verify = true, Halo = true, Direct = false;
  bool BadArgs = false;
  int Positional = 0;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--weak") == 0)
      Weak = true;
    else if (std::strcmp(argv[a], "--time") == 0)
      Time = true;
    else if (std::strcmp(argv[a], "--no-verify") == 0)
      Verify = false;
    else if (std::strcmp(argv[a], "--no-halo") == 0)
      Halo = false;
    else if (std::strcmp(argv[a], "--direct") == 0)
      Direct = true;
    else if (Positional == 0)
      N = std::atoi(argv[a]), Positional = 1;
    else if (Positional == 1)
      Steps = std::atoi(argv[a]), Positional = 2;
    else
      BadArgs = true;
  }
  int Rows = Weak ? N * Ranks : N, Cols = N;
  // MPI counts are ints: the whole grid must have fewer than 2^31 cells.
  if (BadArgs || N < 3 || Steps < 0 || Rows < Ranks ||
      static_cast<long long>(Rows) * Cols > INT_MAX) {
    if (Rank == 0)
      std::fprintf(stderr,
                   "usage: mpirun -np R heat_mpi [n >= 3, >= R] [steps] "
                   "[--weak] [--time] [--no-verify] [--no-halo] "
                   "[--direct]\n");
    MPI_Finalize();
    return 2;
  }

  std::pair<int, int> Mine = rowsOf(Rank, Rows, Ranks);
  int First = Mine.first, Count = Mine.second;
  std::size_t Local = static_cast<std::size_t>(Count + 2) * Cols;
  // This rank's device: HPP_DEVICE=local-rank gives each rank of a node its
  // own.
  Device Here = getDefaultDevice();
  Pointer<float> Cur = allocate<float>(Local, Here);
  Pointer<float> Next = allocate<float>(Local, Here);
  const HaloRows H = {allocateHost<float>(Cols), allocateHost<float>(Cols),
                      allocateHost<float>(Cols), allocateHost<float>(Cols)};
  for (int r = 0; r < Count; ++r)
    for (int j = 0; j < Cols; ++j)
      Cur[static_cast<std::size_t>(r + 1) * Cols + j] =
          initialValue(First + r, j, Rows, Cols);

  MPI_Barrier(MPI_COMM_WORLD);
  double Start = MPI_Wtime();
  for (int s = 0; s < Steps; ++s) {
    if (Halo && Direct)
      exchangeHalos(Cur, Count, Cols, Rank, Ranks);
    else if (Halo)
      exchangeStaged(Cur, H, Count, Cols, Rank, Ranks);
    step(Cur, Next, First, Count, Rows, Cols);
    std::swap(Cur, Next);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double Elapsed = MPI_Wtime() - Start;

  // Rank 0 gathers every rank's rows in order.
  std::vector<int> Counts(Ranks), Offsets(Ranks);
  for (int R = 0; R < Ranks; ++R) {
    std::pair<int, int> Theirs = rowsOf(R, Rows, Ranks);
    Offsets[R] = Theirs.first * Cols;
    Counts[R] = Theirs.second * Cols;
  }
  std::vector<float> Grid(Rank == 0 ? static_cast<std::size_t>(Rows) * Cols
                                    : 0);
  MPI_Gatherv(Cur.get() + Cols, Count * Cols, MPI_FLOAT, Grid.data(),
              Counts.data(), Offsets.data(), MPI_FLOAT, 0, MPI_COMM_WORLD);

  // Which device each rank ran on (HPP_DEVICE=local-rank spreads them).
  int MyDevice = Cur.getDevice().getId();
  std::vector<int> Devices(Ranks);
  MPI_Gather(&MyDevice, 1, MPI_INT, Devices.data(), 1, MPI_INT, 0,
             MPI_COMM_WORLD);

  int Status = 0;
  if (Rank == 0) {
    double Checksum = 0.0;
    for (float V : Grid)
      Checksum += V;
    std::printf("heat_mpi ranks=%d devices=", Ranks);
    for (int R = 0; R < Ranks; ++R)
      std::printf("%s%d", R ? "," : "", Devices[R]);
    std::printf("\n");
    std::printf("heat_mpi grid=%dx%d steps=%d checksum=%.6g\n", Rows, Cols,
                Steps, Checksum);
    if (Verify) {
      std::vector<float> Want = serialHeat(Rows, Cols, Steps);
      double Tolerance = 1e-6 * (Steps + 1), MaxDiff = 0.0;
      long Bad = 0, FirstBad = -1;
      for (std::size_t k = 0; k < Want.size(); ++k) {
        double Diff = std::fabs(static_cast<double>(Grid[k]) - Want[k]);
        if (!(Diff <= Tolerance)) {
          if (FirstBad < 0)
            FirstBad = static_cast<long>(k);
          ++Bad;
        }
        if (!std::isnan(MaxDiff) && !(Diff <= MaxDiff))
          MaxDiff = Diff; // a NaN stays
      }
      if (Bad) {
        std::printf("heat_mpi %ld cells differ, first at row %ld column "
                    "%ld: got %.9g, expected %.9g\n",
                    Bad, FirstBad / Cols, FirstBad % Cols, Grid[FirstBad],
                    Want[FirstBad]);
        Status = 1;
      }
      std::printf("heat_mpi max_diff=%.3g %s\n", MaxDiff,
                  Status ? "FAILED" : "verified");
    } else {
      std::printf("heat_mpi not verified (--no-verify)\n");
    }
  }
  if (Time) {
    double Longest = 0.0;
    MPI_Reduce(&Elapsed, &Longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (Rank == 0)
      std::printf("heat_mpi time_s=%.6f\n", Longest);
  }
  MPI_Bcast(&Status, 1, MPI_INT, 0, MPI_COMM_WORLD);

  deallocate(Cur);
  deallocate(Next);
  deallocate(H.SendUp);
  deallocate(H.SendDown);
  deallocate(H.FromAbove);
  deallocate(H.FromBelow);
  MPI_Finalize();
  return Status;
}
