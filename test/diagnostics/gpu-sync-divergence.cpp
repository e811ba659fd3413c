// A __gpu_sync (or a call of a function that reaches one) that only part of
// a work-group may reach is a warning of hpp-barrier-divergence (the source
// is still rewritten): it lowers to cg::this_grid().sync(), whose
// work-group barrier every work-item must reach at the same call. An early
// return before it is reported too (the returned work-items never arrive:
// a deadlock in the dialect's semantics). Uniform calls are fine.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="{{warning|error}}:"
// RUN: test -s %t.cpp
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

__device(hpp) void settle(Pointer<int> p, std::size_t k) {
  p[k] += 1;
  __gpu_sync(); // Uniform inside the function: not reported here.
}

void run(Pointer<int> p, int n) {
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(256)),
              [=](Index<1, 1> i) __device(hpp) {
    __gpu_sync(); // Every work-item: fine.
    if (i.getX() % 2 == 0)
      __gpu_sync();
    // CHECK-MESSAGES: gpu-sync-divergence.cpp:[[@LINE-1]]:7: warning: __gpu_sync in control flow that depends on the work-item id; __gpu_sync lowers to cg::this_grid().sync(), whose work-group barrier every work-item of a work-group must reach at the same call [hpp-barrier-divergence]
    // CHECK-MESSAGES: gpu-sync-divergence.cpp:[[@LINE-3]]:9: note: this condition depends on the work-item id
    if (i.getLocalX() < 32)
      settle(p, i.getX());
    // CHECK-MESSAGES: gpu-sync-divergence.cpp:[[@LINE-1]]:7: warning: call of 'settle', which reaches __gpu_sync, in control flow that depends on the work-item id
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this condition depends on the work-item id
    if (i.getGroupX() == 0)
      __gpu_sync(); // The same for the whole work-group: fine here.
    if (i.getX() == 7)
      return;
    __gpu_sync();
    // CHECK-MESSAGES: gpu-sync-divergence.cpp:[[@LINE-1]]:5: warning: __gpu_sync in control flow that depends on the work-item id
    // CHECK-MESSAGES: :[[@LINE-4]]:9: note: some work-items return early under this condition, which depends on the work-item id
  });
}
