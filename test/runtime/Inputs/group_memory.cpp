//===- test/runtime/Inputs/group_memory.cpp - Unwritten work-group memory -===//
//
// Part of hpp-rewrite. Input of poison.test and uninit.test: a dialect
// program, run on the CPU reference runtime and, rewritten by hpp-rewrite,
// on the runtime's CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Work-group memory (a DistArray region) read before or after it is
/// written; the mode is the first argument:
///   slots        per-warp partial sums: lane 0 of each warp writes its
///                warp's slot, then work-item 0 adds all 32 slots (a bug:
///                the slots of warps the group does not have are never
///                written); prints the group sums (NaN once poisoned)
///   slots-fixed  the same adding only the group's warps: right sums
///   int-slots    the bug with int slots (-1 per unwritten one)
///   stale        work-group 0 alone writes slot 0; every group reads it
///                (the other groups see the poison, not group 0's value)
///   minus-one    every work-item writes -1 to its slot, then reads its
///                neighbour's: nothing unwritten (-1 is the poison value)
///   float-rmw    `s[l] += 1` on a slot nobody wrote (reads it)
///   neighbour    even work-items write their slot, then every work-item
///                reads its neighbour's and waits at the barrier
///   last         the work-items' last statement reads a slot only work-item
///                5 of work-group 1 fails to write
/// HPP_CPU_CHECK=uninit reports the first read of an unwritten slot; the
/// tests check its file:line through the *-LINE markers.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace hpp;

static void print(const char *Mode, Pointer<float> Out, int Groups) {
  std::printf("%s:", Mode);
  for (int G = 0; G != Groups; ++G)
    if (std::isnan(Out[G]))
      std::printf(" NaN");
    else
      std::printf(" %g", Out[G]);
  std::printf("\n");
}

/// Per-warp sums of In in slots, added by work-item 0: over \p Used
/// slots (0: the group's warps).
static void slots(const char *Mode, int Used) {
  const int N = 512, G = 128;
  Pointer<float> In = allocate<float>(N), Out = allocate<float>(N / G);
  for (int I = 0; I != N; ++I)
    In[I] = float(I % 7);
  DistArray<float> Shared;
  Region<float> Slots = Shared.allocRegion(32);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)), Shared,
              [=](Index<1, 1> i, BoundDistArray<float> a) __device(hpp) {
                Segment<float> s = a(Slots);
                int l = int(i.getLocalX());
                if (l % warpSize == 0) {
                  float Sum = 0;
                  for (int k = 0; k < warpSize; ++k)
                    Sum += In[i.getX() + k];
                  s[l / warpSize] = Sum;
                }
                s.barrier();
                if (l == 0) {
                  int n = Used ? Used : G / warpSize;
                  float Total = 0;
                  for (int w = 0; w < n; ++w)
                    Total += s[w]; // SLOTS-READ-LINE
                  Out[i.getGroupX()] = Total;
                }
              });
  print(Mode, Out, N / G);
}

/// The slots bug with int slots (\p Used: 32).
static void intSlots(int Used) {
  const int N = 256, G = 128;
  Pointer<int> Out = allocate<int>(N / G);
  DistArray<int> Shared;
  Region<int> Slots = Shared.allocRegion(32);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)), Shared,
              [=](Index<1, 1> i, BoundDistArray<int> a) __device(hpp) {
                Segment<int> s = a(Slots);
                int l = int(i.getLocalX());
                if (l % warpSize == 0)
                  s[l / warpSize] = warpSize;
                s.barrier();
                if (l == 0) {
                  int Total = 0;
                  for (int w = 0; w < Used; ++w)
                    Total += s[w];
                  Out[i.getGroupX()] = Total;
                }
              });
  std::printf("int-slots: %d %d\n", Out[0], Out[1]);
}

/// One launch of \p Mode over 4 work-groups of 64 with a 64-float region.
static void small(const char *Mode) {
  const int N = 256, G = 64;
  const bool Stale = !std::strcmp(Mode, "stale"),
             MinusOne = !std::strcmp(Mode, "minus-one"),
             Rmw = !std::strcmp(Mode, "float-rmw"),
             Neighbour = !std::strcmp(Mode, "neighbour");
  Pointer<float> Out = allocate<float>(N);
  DistArray<float> Shared;
  Region<float> R = Shared.allocRegion(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)), Shared,
              [=](Index<1, 1> i, BoundDistArray<float> a) __device(hpp) {
                Segment<float> s = a(R);
                int l = int(i.getLocalX()), g = int(i.getGroupX());
                if (Stale) {
                  if (g == 0 && l == 0)
                    s[0] = 7;
                  s.barrier();
                  Out[i.getX()] = s[0];
                } else if (MinusOne) {
                  s[l] = -1;
                  s.barrier();
                  Out[i.getX()] = s[(l + 1) % G];
                } else if (Rmw) {
                  s[l] += 1; // RMW-LINE
                  Out[i.getX()] = 0;
                } else if (Neighbour) {
                  if (l % 2 == 0)
                    s[l] = float(l);
                  float v = s[l ^ 1]; // NEIGHBOUR-LINE
                  s.barrier();
                  Out[i.getX()] = v;
                } else {
                  if (g != 1 || l != 5)
                    s[l] = float(l);
                  s.barrier();
                  Out[i.getX()] = s[(l + 1) % G]; // LAST-LINE
                }
              });
  float Sum = 0;
  int NaNs = 0;
  for (int I = 0; I != N; ++I) {
    if (std::isnan(Out[I]))
      ++NaNs;
    else
      Sum += Out[I];
  }
  std::printf("%s: sum %g, %d NaN\n", Mode, Sum, NaNs);
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "slots";
  try {
    if (!std::strcmp(Mode, "slots"))
      slots(Mode, 32);
    else if (!std::strcmp(Mode, "slots-fixed"))
      slots(Mode, 0);
    else if (!std::strcmp(Mode, "int-slots"))
      intSlots(32);
    else
      small(Mode);
  } catch (const RuntimeError &E) {
    std::printf("%s: error: %s\n", Mode, E.what());
    return 1;
  }
  return 0;
}
