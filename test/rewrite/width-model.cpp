// One width decision per kernel (lib/Analysis/WidthModel.h, docs/width-model.md).
// Both kernels are written for 32-lane warps throughout, as widely copied
// CUDA code writes them, and use no warpSize: they keep 32-lane logical
// warps on every target. Nothing but the intrinsics' names changes, so the
// 32-lane tree, its width 32, the 0x1f / >> 5 lane arithmetic, the 32
// per-warp slots, the `/ 32.f` second pass and the loop over 256 / 32 warp
// slots stay together.
//  - blockSum: the partial-widening pattern (FasterTransformer's
//    blockReduceSum): a tool that widened `& 0x1f` and `>> 5` but kept the
//    width-32 tree lost lanes 32-63 of every wavefront.
//  - groupSum: the counts-left-at-32 pattern: `getLocalX() / 32` widened
//    but not the loop over 256 / 32 slots read slots no work-item wrote.
// The CPU backend's work-group memory is poisoned, so a slot nobody wrote
// would read as NaN.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t.ref > %t.ref64
// RUN: diff %t.ref32 %t.ref64
// RUN: %cxx_runtime -DHPP_CPU_CHECKS %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t.exe > %t.gen32
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t.exe > %t.gen64
// RUN: diff %t.ref32 %t.gen32
// RUN: diff %t.ref32 %t.gen64
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.gen64
// RUN: %gpu_check %t.cpp
//
// OUT: blockSum 512 items sum=130816 verified
// OUT-NEXT: groupSum 1024 items sum=523776 verified
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cmath>
#include <cstdio>

using namespace hpp;

#define FINAL_MASK 0xffffffff

/// The warp's sum in every lane: an xor tree of width 32.
__device(hpp) inline float warpReduceSum(float val) {
  for (int mask = 16; mask > 0; mask >>= 1)
    val += __shfl_xor_sync(FINAL_MASK, val, mask, 32);
  return val;
}
// CHECK: __device__ inline float warpReduceSum(float val) {
// CHECK-NEXT: for (int mask = 16; mask > 0; mask >>= 1)
// CHECK-NEXT: val += hpp::warp32::shflXorSync(FINAL_MASK, val, mask, 32);

/// Sums[g] = the sum of work-group g's values (work-groups of 256).
void blockSum(Pointer<float> In, Pointer<float> Sums, int n) {
  DistArray<float> shared;
  Region<float> slots = shared.allocRegion(32);
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(256)), shared,
              [=](Index<1, 1> i, BoundDistArray<float> a) __device(hpp) {
                Segment<float> s = a.getRegion(slots);
                int tid = static_cast<int>(i.getLocalX());
                int lane = tid & 0x1f;
                int wid = tid >> 5;
                float val = warpReduceSum(In[i.getX()]);
                if (lane == 0)
                  s[wid] = val;
                s.barrier();
                val = (tid < i.getLocalSizeX() / 32.f) ? s[lane] : 0.0f;
                val = warpReduceSum(val);
                if (tid == 0)
                  Sums[i.getGroupX()] = val;
              });
}
// CHECK: int lane = tid & 0x1f;
// CHECK-NEXT: int wid = tid >> 5;
// CHECK: val = (tid < i.getLocalSizeX() / 32.f) ? s[lane] : 0.0f;

/// Sums[g] = the sum of work-group g's values: per-warp slots, then one
/// work-item adds them.
void groupSum(Pointer<float> In, Pointer<float> Sums, int n) {
  DistArray<float> shared;
  Region<float> slots = shared.allocRegion(256 / 32);
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(256)), shared,
              [=](Index<1, 1> i, BoundDistArray<float> a) __device(hpp) {
                Segment<float> s = a.getRegion(slots);
                float v = In[i.getX()];
                for (int o = 16; o > 0; o /= 2)
                  v += __shfl_down_sync(0xffffffff, v, o);
                int warp = static_cast<int>(i.getLocalX()) / 32;
                if (i.getLocalX() % 32 == 0)
                  s[warp] = v;
                s.barrier();
                if (i.getLocalX() == 0) {
                  float t = 0.0f;
                  for (int w = 0; w < 256 / 32; ++w)
                    t += s[w];
                  Sums[i.getGroupX()] = t;
                }
              });
}
// CHECK: v += hpp::warp32::shflDownSync(0xffffffff, v, o);
// CHECK-NEXT: int warp = static_cast<int>(i.getLocalX()) / 32;
// CHECK: for (int w = 0; w < 256 / 32; ++w)

static int check(const char *Name, void (*F)(Pointer<float>, Pointer<float>,
                                             int),
                 int n) {
  int Groups = n / 256;
  Pointer<float> In = allocate<float>(n);
  Pointer<float> Sums = allocate<float>(Groups);
  for (int k = 0; k < n; ++k)
    In[k] = static_cast<float>(k);
  F(In, Sums, n);
  double Total = 0;
  int Wrong = 0;
  for (int g = 0; g < Groups; ++g) {
    double Want = 0;
    for (int k = g * 256; k < (g + 1) * 256; ++k)
      Want += k;
    if (!(std::fabs(Sums[g] - Want) <= 0.5))
      ++Wrong;
    Total += Sums[g];
  }
  std::printf("%s %d items sum=%.0f %s\n", Name, n, Total,
              Wrong ? "WRONG" : "verified");
  deallocate(In);
  deallocate(Sums);
  return Wrong;
}

int main() {
  int Wrong = check("blockSum", blockSum, 512);
  Wrong += check("groupSum", groupSum, 1024);
  return Wrong ? 1 : 0;
}
