// A dialect source that also calls the HIP host API directly: parsed
// against the mock SDK header in test/Inputs/mock (no SDK needed), the
// HIP calls and include are left as written, and the output compiles
// against the real SDK.
// RUN: %hpp_rewrite %s -o %t.cpp -- -isystem %inputs/mock
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp -- -isystem %inputs/mock | diff %t.cpp -
// RUN: %gpu_check --only hipcc %t.cpp

#include <hpp/hpp.h>
#include <hip/hip_runtime.h>
using namespace hpp;

// CHECK: #include <hpp/runtime.h>
// CHECK-NEXT: #include <hip/hip_runtime.h>

int devices() {
  int count = 0;
  return hipGetDeviceCount(&count) == hipSuccess ? count : 0;
}
// CHECK: return hipGetDeviceCount(&count) == hipSuccess ? count : 0;

void clear(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i.getX()] = 0; });
  hipDeviceSynchronize();
}
// CHECK: __global__ void hpp_clear_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<int> p) {
// CHECK: hpp::launchKernel(hpp_clear_pfor0, Range<1>(n), p);
// CHECK-NEXT: hipDeviceSynchronize();
