// __syncwarp() and __syncwarp(mask) in device code become a sync of the
// 32-lane tile, cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block())
// .sync() (never __syncthreads()); the mask goes, and with it whatever the
// other rules rewrote inside it (__activemask()). The program exchanges
// values between neighbouring lanes through memory, a __syncwarp between
// the writes and the reads, and checks them against plain C++ at widths 32
// and 64.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe
// RUN: env HPP_CPU_MVECTOR=64 %t.exe
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

/// Stores \p v at \p slot, then reads the value of the lane next to it.
__device(hpp) int swapWithNeighbour(Pointer<int> buf, int slot, int v) {
  buf[slot] = v;
  __syncwarp(__activemask());
  return buf[slot ^ 1];
}
// CHECK: {{^}}__device__ int swapWithNeighbour(Pointer<int> buf, int slot, int v) {
// CHECK-NEXT: buf[slot] = v;
// CHECK-NEXT: cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block()).sync();
// CHECK-NEXT: return buf[slot ^ 1];

void exchange(Pointer<int> in, Pointer<int> buf, Pointer<int> out, int n) {
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(128)),
              [=](Index<1, 1> i) __device(hpp) {
                int k = int(i.getX());
                buf[n + k] = in[k] * 2;
                __syncwarp();
                int twice = buf[n + (k ^ 3)];
                __syncwarp(0xffffffff);
                out[k] = swapWithNeighbour(buf, k, in[k]) + twice;
              });
}
// CHECK:      buf[n + k] = in[k] * 2;
// CHECK-NEXT: cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block()).sync();
// CHECK-NEXT: int twice = buf[n + (k ^ 3)];
// CHECK-NEXT: cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block()).sync();
// CHECK-NOT: __syncwarp
// CHECK-NOT: __syncthreads

int main() {
  const int n = 512;
  Pointer<int> in = allocate<int>(n), buf = allocate<int>(2 * n),
               out = allocate<int>(n);
  for (int k = 0; k < n; ++k)
    in[k] = k * 5 % 17;
  try {
    exchange(in, buf, out, n);
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
  int Wrong = 0;
  for (int k = 0; k < n; ++k)
    Wrong += out[k] != in[k ^ 1] + 2 * in[k ^ 3];
  if (Wrong)
    std::printf("wrong result: %d values\n", Wrong);
  return Wrong != 0;
}
