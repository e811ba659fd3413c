// A kernel that uses warpSize and no 32-lane literal runs on whole
// wavefronts (docs/width-model.md), and its lane masks become as wide as
// the wavefront: the full-mask literal of the
// *_sync intrinsics becomes hpp::getWarpFullMask(), 32-bit variables and
// device-function parameters that hold masks become hpp::LaneMask (auto
// stays), __popc / __ffs of a mask become hpp::popcMask / ffsMask, and a
// lane bit 1u << lane in a mask shifts a LaneMask. A __popc of a non-mask
// and a 0xffffffff that is not a mask (a hash seed) stay. The program
// reduces each mvector of 128-item work-groups with a
// __shfl_down_sync(0xffffffff, ...) tree from warpSize / 2 and counts its
// odd values with a ballot: as written it is wrong on a 64-lane mvector (the
// 32-bit mask names 32 lanes, the loop starts at offset 32); rewritten it is
// right at 32 and at 64.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include %s -o %t.dialect.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.dialect.exe
// RUN: env HPP_CPU_MVECTOR=64 not %t.dialect.exe | FileCheck %s --check-prefix=DIALECT64
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe
// RUN: env HPP_CPU_MVECTOR=64 %t.exe
// RUN: %gpu_check %t.cpp
//
// On the CPU runtime the 32-bit mask names a 32-lane warp, whose offset 32
// is the own value (CUDA): each half of the 64-lane mvector sums alone.
// DIALECT64: wrong result at width 64: {{[0-9]+}} values

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>

using namespace hpp;

/// The lanes of \p votes: a mask parameter of a device function.
__device(hpp) int countVotes(unsigned votes) { return __popc(votes); }
// CHECK: {{^}}__device__ int countVotes(hpp::LaneMask votes) { return hpp::popcMask(votes); }

/// FNV-style hash: its 0xffffffff is not a lane mask.
__device(hpp) unsigned hashOf(unsigned x) {
  unsigned h = 0xffffffffu;
  h = (h ^ x) * 16777619u;
  return h;
}
// CHECK: __host__ __device__ unsigned hashOf(unsigned x) {
// CHECK-NEXT: unsigned h = 0xffffffffu;

/// Per mvector: the sum of its values (at sums[mvector]), the number of odd
/// values (odds[item]), the first odd lane + 1 (first[item]), the number of
/// even values (evens[item]); per item: the odd values in lanes below
/// (ranks[item], negative for an even value), popcount and hash of the
/// value.
void warpStats(Pointer<int> in, Pointer<int> sums, Pointer<int> odds,
               Pointer<int> first, Pointer<int> evens, Pointer<int> ranks,
               Pointer<int> bits, Pointer<unsigned> hashes, int n) {
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(128)),
              [=](Index<1, 1> i) __device(hpp) {
                int v = in[i.getX()];
                int lane = int(i.getLocalX()) % warpSize;
                int sum = v;
                for (int o = warpSize / 2; o > 0; o /= 2)
                  sum += __shfl_down_sync(0xffffffff, sum, o);
                if (lane == 0)
                  sums[i.getX() / warpSize] = sum;

                unsigned full = 0xffffffff;
                unsigned oddLanes = __ballot_sync(full, v & 1);
                auto evenLanes = __ballot_sync(~0u, !(v & 1));
                odds[i.getX()] = countVotes(oddLanes);
                first[i.getX()] = __ffs(oddLanes);
                evens[i.getX()] = __popc(evenLanes);
                unsigned self = 1u << lane;
                int below = __popc(oddLanes & ((1u << lane) - 1));
                ranks[i.getX()] = (oddLanes & self) ? below : -1 - below;
                bits[i.getX()] = __popc(unsigned(v));
                hashes[i.getX()] = hashOf(unsigned(v));
              });
}
// CHECK:      int sum = v;
// CHECK-NEXT: for (int o = hpp::getWarpSize() / 2; o > 0; o /= 2)
// CHECK-NEXT:   sum += hpp::shflDownSync(hpp::getWarpFullMask(), sum, o);
// CHECK:      hpp::LaneMask full = hpp::getWarpFullMask();
// CHECK-NEXT: hpp::LaneMask oddLanes = hpp::ballotSync(full, v & 1);
// CHECK-NEXT: auto evenLanes = hpp::ballotSync(hpp::getWarpFullMask(), !(v & 1));
// CHECK-NEXT: odds[i.getX()] = countVotes(oddLanes);
// CHECK-NEXT: first[i.getX()] = hpp::ffsMask(oddLanes);
// CHECK-NEXT: evens[i.getX()] = hpp::popcMask(evenLanes);
// CHECK-NEXT: hpp::LaneMask self = hpp::LaneMask(1u) << lane;
// CHECK-NEXT: int below = hpp::popcMask(oddLanes & ((hpp::LaneMask(1u) << lane) - 1));
// CHECK-NEXT: ranks[i.getX()] = (oddLanes & self) ? below : -1 - below;
// CHECK-NEXT: bits[i.getX()] = __popc(unsigned(v));
// CHECK-NEXT: hashes[i.getX()] = hashOf(unsigned(v));

int main() {
  const char *Env = std::getenv("HPP_CPU_MVECTOR");
  const int W = Env && std::atoi(Env) == 64 ? 64 : 32;
  const int n = 1024;
  Pointer<int> in = allocate<int>(n), sums = allocate<int>(n / 32),
               odds = allocate<int>(n), first = allocate<int>(n),
               evens = allocate<int>(n), ranks = allocate<int>(n),
               bits = allocate<int>(n);
  Pointer<unsigned> hashes = allocate<unsigned>(n);
  for (int k = 0; k < n; ++k)
    in[k] = (k * 7 + k / 37) % 23; // Odd counts differ between mvectors.
  try {
    warpStats(in, sums, odds, first, evens, ranks, bits, hashes, n);
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
  // The same in plain C++, mvector by mvector.
  int Wrong = 0;
  for (int m = 0; m < n / W; ++m) {
    int Sum = 0, Odd = 0, First = 0;
    for (int l = 0; l < W; ++l) {
      int v = in[m * W + l];
      Sum += v;
      Odd += v & 1;
      if ((v & 1) && !First)
        First = l + 1;
    }
    Wrong += sums[m] != Sum;
    for (int l = 0, Below = 0; l < W; ++l) {
      int k = m * W + l;
      unsigned v = unsigned(in[k]), h = (0xffffffffu ^ v) * 16777619u;
      int Rank = (v & 1) ? Below : -1 - Below;
      Below += v & 1;
      Wrong += odds[k] != Odd || first[k] != First || evens[k] != W - Odd ||
               ranks[k] != Rank || bits[k] != __builtin_popcount(v) ||
               hashes[k] != h;
    }
  }
  for (int m = n / W; m < n / 32; ++m)
    Wrong += sums[m] != 0;
  if (Wrong)
    std::printf("wrong result at width %d: %d values\n", W, Wrong);
  return Wrong != 0;
}
