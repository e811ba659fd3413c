// Functions that device code calls without `__device(hpp)` (inline,
// constexpr, templates) are compiled for the device (hpp-implicit-device-
// function qualifies them), so their bodies are device code for every rule:
// the width there is the executing device's (`hpp::getWarpSize()`, not the
// host's `hpp::getWarpSize(hpp::getDevice())`, which nvcc refuses to call
// from device code), and their warp intrinsics are rewritten like a
// kernel's (they used to stay as written: `__shfl_xor_sync` with a 32-bit
// mask means another thing on a 64-lane wavefront under ROCm 6.2+, and
// does not exist before it). They take part in the width model like any
// device function: this kernel reads the width and has no 32-lane fact,
// so it runs on whole wavefronts and the shuffle's mask is widened. A host
// call of the same helper gets the current device's width.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=64 %t.ref > %t.ref64
// RUN: FileCheck %s --check-prefix=OUT32 --match-full-lines < %t.ref32
// RUN: FileCheck %s --check-prefix=OUT64 --match-full-lines < %t.ref64
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | diff %t.ref32 -
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | diff %t.ref64 -
// RUN: %gpu_check %t.cpp
//
// OUT32: width 32 (host 32), swapped pairs 128 of 128, lanes sum 1984
// OUT64: width 64 (host 64), swapped pairs 128 of 128, lanes sum 4032
// OUT32-NOT: {{.}}
// OUT64-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

/// The width where it runs.
inline int lanes() { return MVECTOR_SIZE; }
// CHECK: __host__ __device__ inline int lanes() { return hpp::getWarpSize(); }

/// \p x's lane.
template <typename T> constexpr T laneOf(T x) { return x % T(warpSize); }
// CHECK: template <typename T> __host__ __device__ constexpr T laneOf(T x) { return x % T(hpp::getWarpSize()); }

/// The value of the neighbouring lane of the pair.
inline int swap1(int v) { return __shfl_xor_sync(0xffffffffu, v, 1); }
// CHECK: __device__ inline int swap1(int v) { return hpp::shflXorSync(hpp::getWarpFullMask(), v, 1); }

int main() {
  const int n = 128;
  Pointer<int> W = allocate<int>(n), S = allocate<int>(n), L = allocate<int>(n);
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    W[x] = lanes();
    S[x] = swap1(x) == (x ^ 1);
    L[x] = laneOf(x);
  });
  int Swapped = 0, Sum = 0;
  for (int k = 0; k < n; ++k) {
    Swapped += S[k];
    Sum += L[k];
  }
  std::printf("width %d (host %d), swapped pairs %d of %d, lanes sum %d\n",
              W[0], lanes(), Swapped, n, Sum);
  deallocate(W);
  deallocate(S);
  deallocate(L);
  return 0;
}
