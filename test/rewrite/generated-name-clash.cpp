// The kernel's own names (the range parameter, the index of an unnamed
// parameter, a captured Barrier's storage, an Atomic reference's pointer)
// avoid every name the body uses: a capture named `hpp_range` keeps its
// meaning.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.ref | FileCheck %s --check-prefix=OUT
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;

int main() {
  Pointer<int> p = allocate<int>(64);
  const int n = 64;
  int hpp_range = 3, hpp_ref_total = 4;
  Pointer<Atomic<int>> totals = allocate<Atomic<int>>(1);
  Atomic<int> &total = totals[0];
  parallelFor(Range<1>(n), [=, &total](Index<1> i) __device(hpp) {
    p[i.getX()] = hpp_range + hpp_ref_total;
    total += 1;
  });
  // CHECK: __global__ void hpp_main_pfor0(hpp::Range<1> hpp_range_,
  // CHECK: hpp::Atomic<int> *const hpp_ref_total_
  // CHECK: hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range_);
  // CHECK: hpp::Atomic<int> &total = *hpp_ref_total_;
  int sum = 0;
  for (int e = 0; e < n; ++e)
    sum += p[e];
  std::printf("sum %d total %d\n", sum, int(total));
  deallocate(p);
  deallocate(totals);
}
// OUT: sum 448 total 64
