// 32-lane assumptions in device code become width-independent: shuffle
// trees from 16 start at hpp::getWarpSize() / 2, scans stop at
// hpp::getWarpSize(), `& 31`, `% 32`, `/ 32` and `>> 5` on work-item ids and
// `lane == 31` use the width, per-lane arrays get MVECTOR_MAX elements and
// warp counts divide by MVECTOR_MIN; a [32] array indexed by the id in
// another way is reported.
// A literal 32 that is not a width stays, and so do trees over a fixed
// 32-lane width. The program checks every value against plain C++ at both
// simulated widths.
// RUN: %hpp_rewrite %s -o %t.cpp 2> %t.err
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not="[hpp-" < %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe
// RUN: env HPP_CPU_MVECTOR=64 %t.exe
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -x cu -c %t.cpp -o %t.nv.o %}
// RUN: %if hipcc %{ %hipcc -x hip --offload-arch=gfx90a --cuda-device-only -c %t.cpp -o %t.gfx90a.o %}
// RUN: %if hipcc %{ %hipcc -x hip --offload-arch=gfx1030 --cuda-device-only -c %t.cpp -o %t.gfx1030.o %}

#include <hpp/hpp.h>
using namespace hpp;

#include <cstdio>

/// A shuffle-tree reduction: lane 0 gets the warp's sum.
__device(hpp) int warpSum(int v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
// Shuffles are device-only: the function becomes __device__.
// CHECK: {{^}}__device__ int warpSum(int v) {
// CHECK-NEXT: for (int o = hpp::getWarpSize() / 2; o > 0; o >>= 1)

constexpr int G = 128; // work-group size
constexpr int K = 21;  // results per work-item

void lanes(Pointer<int> in, Pointer<int> out, int n) {
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(G)), [=](Index<1, 1> i) __device(hpp) {
    int g = int(i.getX());
    int lid = int(i.getLocalX());
    int v = in[g];
    int *r = &out[g * K];
    r[0] = warpSize;
    // Lane and warp ids.
    int lane = lid & 31;
    r[1] = lane;
    r[2] = lid >> 5;
    r[3] = lid / 32;
    r[4] = g % 32;
    r[5] = lid + 0 >> 5;
    r[20] = lane == 31;
    // CHECK: int lane = lid & (hpp::getWarpSize() - 1);
    // CHECK: r[2] = lid / hpp::getWarpSize();
    // CHECK-NEXT: r[3] = lid / hpp::getWarpSize();
    // CHECK-NEXT: r[4] = g % hpp::getWarpSize();
    // CHECK-NEXT: r[5] = (lid + 0) / hpp::getWarpSize();
    // CHECK-NEXT: r[20] = lane == hpp::getWarpSize() - 1;
    // Shuffle trees in three spellings, and an upward butterfly.
    int sum = v;
    for (int o = 16; o > 0; o /= 2)
      sum += __shfl_xor_sync(0xffffffff, sum, o);
    r[6] = sum;
    r[7] = warpSum(v);
    int max = v;
    for (int o = 16; o > 0; o = o / 2) {
      int t = __shfl_xor_sync(0xffffffff, max, o);
      max = t > max ? t : max;
    }
    r[8] = max;
    int up = v;
    for (int o = 1; o < 32; o *= 2)
      up += __shfl_xor_sync(0xffffffff, up, o);
    r[9] = up;
    // CHECK: for (int o = hpp::getWarpSize() / 2; o > 0; o /= 2)
    // CHECK-NEXT: sum += {{.*}}, sum, o);
    // CHECK: for (int o = hpp::getWarpSize() / 2; o > 0; o = o / 2) {
    // CHECK: for (int o = 1; o < hpp::getWarpSize(); o *= 2)
    // Inclusive scan with __shfl_up_sync.
    int p = v;
    for (int o = 1; o < 32; o <<= 1) {
      int t = __shfl_up_sync(0xffffffff, p, o);
      if (lane >= o)
        p += t;
    }
    r[10] = p;
    // CHECK: for (int o = 1; o < hpp::getWarpSize(); o <<= 1) {
    // Per-lane storage, per-warp counts.
    int perLane[32];
    perLane[lane] = v;
    r[11] = perLane[lane];
    int perWarp[G / 32];
    int perWarp2[G >> 5];
    for (int k = 0; k < G / 32; ++k)
      perWarp[k] = perWarp2[k] = k;
    r[12] = perWarp[lid / 32] + perWarp2[lid / 32];
    // CHECK: int perLane[MVECTOR_MAX];
    // CHECK: int perWarp[G / MVECTOR_MIN];
    // CHECK-NEXT: int perWarp2[G / MVECTOR_MIN];
    // CHECK-NEXT: for (int k = 0; k < G / 32; ++k)
    // Unclear: indexed by the id, but not as a lane.
    int unclear[32];
    unclear[lid % 16] = v;
    r[13] = unclear[lid % 16];
    // WARN: lane-assumption.cpp:[[@LINE-3]]:17: warning: array of 32 elements indexed by the work-item id: if it holds one element per lane, a 64-wide wavefront overflows it [hpp-lane-assumption]
    // WARN: lane-assumption.cpp:[[@LINE-4]]:17: note: per-lane storage takes the widest warp: MVECTOR_MAX (64 on HIP, 32 on CUDA)
    // CHECK: int unclear[32];
    // Not widths: a uniform value modulo 32, a scale, an id that is not a
    // lane, a loop counter, a loop from 16 with no shuffle, a tree over a
    // fixed 32-lane width, the group id.
    r[14] = n % 32;
    r[15] = lid * 32 + (lid == 31);
    float buf[32];
    for (int k = 0; k < 32; ++k)
      buf[k] = float(k);
    float total = 0;
    for (int k = 0; k < 32; ++k)
      total += buf[k];
    r[16] = int(total);
    int acc = 0;
    for (int k = 16; k > 0; k >>= 1)
      acc += k;
    r[17] = acc;
    int seg = v;
    for (int o = 16; o > 0; o >>= 1)
      seg += __shfl_xor_sync(0xffffffff, seg, o, 32);
    r[18] = seg;
    r[19] = int(i.getGroupX()) % 32;
    // CHECK: r[14] = n % 32;
    // CHECK-NEXT: r[15] = lid * 32 + (lid == 31);
    // CHECK-NEXT: float buf[32];
    // CHECK-NEXT: for (int k = 0; k < 32; ++k)
    // CHECK: for (int k = 16; k > 0; k >>= 1)
    // CHECK: for (int o = 16; o > 0; o >>= 1)
    // CHECK-NEXT: seg += {{.*}}, seg, o, 32);
    // CHECK-NEXT: r[18] = seg;
    // CHECK-NEXT: r[19] = int(i.getGroupX()) % 32;
  });
}

int main() {
  const int n = 512;
  Pointer<int> in = allocate<int>(n), out = allocate<int>(n * K);
  for (int g = 0; g < n; ++g)
    in[g] = (g * 7919) % 1000 - 300;
  lanes(in, out, n);
  const int W = out[0];
  int bad = 0;
  for (int g = 0; g < n; ++g) {
    int lid = g % G, lane = g % W, base = g - lane;
    int sum = 0, max = in[base], prefix = 0, seg = 0;
    for (int l = 0; l < W; ++l) {
      sum += in[base + l];
      max = in[base + l] > max ? in[base + l] : max;
      if (l <= lane)
        prefix += in[base + l];
    }
    for (int l = 0; l < 32; ++l)
      seg += in[g - g % 32 + l];
    // r[k] as computed by the body; warpSum is only defined in lane 0.
    const int expect[K] = {W,
                           lane,
                           lid / W,
                           lid / W,
                           lane,
                           lid / W,
                           sum,
                           lane ? out[g * K + 7] : sum,
                           max,
                           sum,
                           prefix,
                           in[g],
                           2 * (lid / W),
                           in[g],
                           n % 32,
                           lid * 32 + (lid == 31),
                           496,
                           31,
                           seg,
                           (g / G) % 32,
                           lane == W - 1};
    for (int k = 0; k < K; ++k)
      if (out[g * K + k] != expect[k] && bad++ < 10)
        std::printf("work-item %d result %d: %d, expected %d\n", g, k,
                    out[g * K + k], expect[k]);
  }
  std::printf("width %d: %s\n", W, bad ? "FAILED" : "ok");
  deallocate(in);
  deallocate(out);
  return bad ? 1 : 0;
}
