// A Barrier wait that only part of a wavefront may reach is a warning (the
// source is still rewritten): legal in the dialect and on NVIDIA, where
// threads are scheduled independently, but on AMD the waiting lanes spin
// while the other lanes of their wavefront, held back by the branch, cannot
// arrive. Calls that hand the barrier to a function count as waits;
// arrive() and skip() do not block; waits in uniform control flow, or
// under conditions that are the same for a whole warp (the group, the warp
// index), are fine.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="{{warning|error}}:"
// RUN: test -s %t.cpp
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

__device(hpp) inline int steps(std::size_t l) { return int(l % 4); }

__device(hpp) void stage(Barrier &b, Pointer<int> p, std::size_t k) {
  p[k] += 1;
  b.wait(); // Uniform inside the function: not reported here.
}

void run(Pointer<int> p, int n) {
  Barrier b(256);
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(256)),
              [=, &b](Index<1, 1> i) __device(hpp) {
    std::size_t l = i.getLocalX();
    b.wait(); // Every work-item: fine.
    for (int s = 0; s < steps(l); ++s)
      b.wait();
    // CHECK-MESSAGES: barrier-divergence.cpp:[[@LINE-1]]:7: warning: barrier wait in control flow that depends on the work-item id; on AMD the lanes that wait spin while the other lanes of their wavefront cannot arrive (no independent thread scheduling) [hpp-barrier-divergence]
    // CHECK-MESSAGES: barrier-divergence.cpp:[[@LINE-3]]:21: note: this condition depends on the work-item id; keep a barrier's participants in whole wavefronts on AMD (branch on the wavefront, not the lane)
    b.skip();
  });
  Barrier c(256);
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(256)),
              [=, &c](Index<1, 1> i) __device(hpp) {
    std::size_t l = i.getLocalX();
    if (l % 2 == 0)
      stage(c, p, i.getX());
    // CHECK-MESSAGES: barrier-divergence.cpp:[[@LINE-1]]:7: warning: call of 'stage', which takes a Barrier and may wait, in control flow that depends on the work-item id
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this condition depends on the work-item id
    else
      c.arrive(); // Does not block.
    // The same for every lane of a warp: the warp index, the group.
    if (l / 32 == 0)
      c.wait();
    if (i.getGroupX() == 0)
      c.wait();
  });
}
