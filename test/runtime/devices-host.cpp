// allocateHost (docs/devices.md): page-locked host memory for staging.
// copy and copyAsync move data between it and any device's memory (a
// copyAsync to it after a task on the last device, a copy from it to the
// first); its Pointer's device is HostMemoryId; a kernel that uses it is
// refused at the launch's line, naming the allocation. The reference and
// the rewritten program print the same at 1 and 3 simulated devices, and
// the output compiles for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.gen
// RUN: env HPP_CPU_DEVICES=1 %t.ref > %t.ref1
// RUN: env HPP_CPU_DEVICES=3 %t.ref > %t.ref3
// RUN: env HPP_CPU_DEVICES=3 HPP_CPU_MVECTOR=64 %t.gen > %t.gen3
// RUN: diff %t.ref1 %t.ref3
// RUN: diff %t.ref1 %t.gen3
// RUN: FileCheck %s --match-full-lines -DFILE=%s < %t.ref1
// RUN: %gpu_check %t.cpp
//
// CHECK: host: device -1, 256 values verified
// CHECK-NEXT: async: 256 values verified
// CHECK-NEXT: error: [[FILE]]:[[#KERNEL:]]: kernel on Device(0) failed: a work-item on device 0 used host memory allocated at [[FILE]]:[[#HOSTALLOC:]] (allocateHost), which kernels may not use; copy it to device 0 first (hpp::copy)
// CHECK-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

int main() {
  const std::size_t n = 256;
  Pointer<int> h = allocateHost<int>(n); // HOSTALLOC
  Pointer<int> d = allocate<int>(n, Device(0));
  Pointer<int> e = allocate<int>(n, Device(getDeviceCount() - 1));
  for (std::size_t i = 0; i < n; ++i)
    h[i] = int(i) * 5;
  copy(d, h, n);
  parallelFor(Device(0), Range<1>(n), [=](Index<1> i) __device(hpp) { d[i] += 1; });
  copy(e, 0, d, 0, n);
  Task<void, Index<1>> twice([=](Index<1> i) __device(hpp) { e[i] *= 2; });
  Future<void> f = twice.enqueue(e.getDevice(), Range<1>(n));
  Future<void> back = copyAsync(h, 0, e, 0, n, f);
  back.wait();
  int wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    wrong += h[i] != (int(i) * 5 + 1) * 2;
  std::printf("host: device %d, %zu values %s\n", h.getDevice().getId(), n,
              wrong ? "FAILED" : "verified");
  copy(h, d, n);
  wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    wrong += h[i] != int(i) * 5 + 1;
  std::printf("async: %zu values %s\n", n, wrong ? "FAILED" : "verified");
#if !defined(__CUDACC__) && !defined(__HIPCC__)
  // Kernels may not use host memory: the CPU runtimes say so (a GPU would
  // read it through the mapping, so this part runs on the CPU only).
  try {
    parallelFor(Device(0), Range<1>(n), [=](Index<1> i) __device(hpp) { d[i] = h[i]; }); // KERNEL
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
  }
#endif
  deallocate(h);
  deallocate(d);
  deallocate(e);
  return 0;
}
