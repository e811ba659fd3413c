//===- examples/segment_reduce_tree.cpp - Tree reduction in a Segment -----===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The sum of n integers, one work-group at a time: each work-group copies
/// its items into a Segment (a region of one element per work-item of the
/// group, GPU shared memory), then halves the active part of the segment
/// each step, adding the upper half onto the lower one, with the work-group
/// barrier (Segment::barrier) between steps; work-item 0 writes the group's
/// sum, and the host adds the groups' sums.
///
/// Any group size works, power of two or not, and so does a partial last
/// group (its trailing work-items do not run the body): the group reduces
/// the m elements its running work-items loaded, with a first step that
/// folds everything above the largest power of two below m onto the part
/// beneath it. Every work-item that runs takes the same number of steps, so
/// all reach every barrier.
///
/// Usage: segment_reduce_tree   (prints one line per run; exit status 0
/// when every group's sum matches plain C++)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

static int Failures = 0;

/// Sums[g] = the sum of In over work-group g's items.
static void groupSums(Pointer<long long> In, Pointer<long long> Sums,
                      std::size_t n, std::size_t G) {
  DistArray<long long> shared;
  Region<long long> partial = shared.allocRegion(G);
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(G)), shared,
              [=](Index<1, 1> i, BoundDistArray<long long> a) __device(hpp) {
                Segment<long long> seg = a.getRegion(partial);
                std::size_t l = i.getLocalX();
                std::size_t base = i.getGroupX() * G;
                std::size_t m =
                    n - base < G ? n - base : G; // work-items that run
                seg[l] = In[i.getX()];
                seg.barrier();
                std::size_t half = 1; // the largest power of two below m (or 1)
                while (half * 2 < m)
                  half *= 2;
                for (; half > 0; half /= 2) {
                  if (l < half && l + half < m)
                    seg[l] += seg[l + half];
                  seg.barrier();
                }
                if (l == 0)
                  Sums[i.getGroupX()] = seg[0];
              });
}

static void run(std::size_t n, std::size_t G) {
  std::size_t Groups = (n + G - 1) / G;
  Pointer<long long> In = allocate<long long>(n);
  Pointer<long long> Sums = allocate<long long>(Groups);
  for (std::size_t I = 0; I != n; ++I)
    In[I] = static_cast<long long>(I * 37 % 1009) - 500;
  groupSums(In, Sums, n, G);
  long long Total = 0, Weighted = 0; // Weighted: each sum times its group
  int Wrong = 0;
  for (std::size_t Gr = 0; Gr != Groups; ++Gr) {
    long long Want = 0;
    for (std::size_t I = Gr * G; I < n && I < (Gr + 1) * G; ++I)
      Want += In[I];
    if (Sums[Gr] != Want && Wrong++ < 10)
      std::printf("MISMATCH n=%zu group=%zu: work-group %zu sum %lld, want "
                  "%lld\n",
                  n, G, Gr, Sums[Gr], Want);
    Total += Sums[Gr];
    Weighted += Sums[Gr] * static_cast<long long>(Gr + 1);
  }
  Failures += Wrong;
  std::printf("tree-reduce n=%zu group=%zu groups=%zu sum=%lld weighted=%lld "
              "%s\n",
              n, G, Groups, Total, Weighted, Wrong ? "FAILED" : "verified");
  deallocate(In);
  deallocate(Sums);
}

int main() {
  run(4096, 64);
  run(1000, 128);  // the last group runs 104 of its 128 work-items
  run(10000, 256); // the last group runs 16
  run(1000, 96);   // not a power of two; the last group runs 40
  run(2500, 1000); // not a power of two; the last group runs 500
  run(5, 64);      // one group, 5 of whose work-items run
  return Failures ? 1 : 0;
}
