// The width in default arguments. A host function's default argument is
// evaluated in the caller's host code at each call: MVECTOR_SIZE there is
// the current device's width, `hpp::getWarpSize(hpp::getDevice())` (it was
// left as written, and the output did not compile). A device function's
// default argument is device code: the executing device's width; so is
// that of an inline function that device code calls (it becomes
// `__host__ __device__`, and its host calls get the current device's
// width from the same `hpp::getWarpSize()`).
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
// OUT32: lane sum 1984, mvectors for 1000: 32, of 16: 16
// OUT64: lane sum 4032, mvectors for 1000: 16, of 16: 16
// OUT32-NOT: {{.}}
// OUT64-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

/// The number of mvectors that cover \p n items.
int mvectorsFor(int n, int w = MVECTOR_SIZE) { return (n + w - 1) / w; }
// CHECK: int mvectorsFor(int n, int w = hpp::getWarpSize(hpp::getDevice())) { return (n + w - 1) / w; }

struct Tiler {
  /// The same as a member, declared here and defined below.
  static int tiles(int n, int w = warpSize / 2);
};
// CHECK: static int tiles(int n, int w = hpp::getWarpSize(hpp::getDevice()) / 2);
int Tiler::tiles(int n, int w) { return (n + w - 1) / w; }

/// \p x's lane in its mvector.
int laneOf(int x, int w = MVECTOR_SIZE) __device(hpp) { return x % w; }
// CHECK: __host__ __device__ int laneOf(int x, int w = hpp::getWarpSize()) { return x % w; }

/// The same without `__device(hpp)`, called from device code.
inline int laneIn(int x, int w = MVECTOR_SIZE) { return x % w; }
// CHECK: __host__ __device__ inline int laneIn(int x, int w = hpp::getWarpSize()) { return x % w; }

int main() {
  Pointer<int> p = allocate<int>(128);
  parallelFor(Range<1>(128), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    p[x] = laneOf(x) + 1000 * (laneIn(x) != laneOf(x));
  });
  int s = 0;
  for (int k = 0; k < 128; ++k)
    s += p[k];
  deallocate(p);
  std::printf("lane sum %d, mvectors for 1000: %d, of 16: %d\n", s,
              mvectorsFor(1000), Tiler::tiles(16 * int(MVECTOR_SIZE) / 2));
  return 0;
}
