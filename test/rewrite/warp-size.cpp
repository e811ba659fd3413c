// warpSize and MVECTOR_SIZE in device code become hpp::getWarpSize(), in
// parallelFor bodies and in __device(hpp) functions; a literal 32 that is
// not a warp width is left alone. On the runtime's CPU backend the width
// is 32, so the program below checks that value.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: %t.exe
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

__device(hpp) int laneOf(int id) { return id % warpSize; }
// CHECK: __host__ __device__ int laneOf(int id) { return id % hpp::getWarpSize(); }

void widths(Pointer<int> w, Pointer<int> lane, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    w[i.getX()] = MVECTOR_SIZE + 32 - 32;
    lane[i.getX()] = laneOf(int(i.getX()));
  });
}
// CHECK: w[i.getX()] = hpp::getWarpSize() + 32 - 32;
// CHECK-NEXT: lane[i.getX()] = laneOf(int(i.getX()));
// CHECK-NOT: MVECTOR_SIZE
// CHECK-NOT: warpSize

int main() {
  const int n = 100;
  Pointer<int> w = allocate<int>(n), lane = allocate<int>(n);
  widths(w, lane, n);
  for (int k = 0; k < n; ++k)
    if (w[k] != 32 || lane[k] != k % 32)
      return 1;
  deallocate(w);
  deallocate(lane);
  return 0;
}
