// Misused collectives. The tool warns where part of a work-group (or
// mvector) may skip one: a work-group collective under a condition on the
// work-item id is a barrier wait in divergent code (hpp-barrier-divergence),
// a warp collective there a divergent warp collective
// (hpp-divergent-warp-op); the source is still rewritten. The reference
// runtime, and the runtime's CPU backend running the rewritten source,
// throw RuntimeError at the caller's line instead of hanging: a group
// collective that some work-items of the range exit without calling, one
// that others reach at another line, a warp collective that part of the
// mvector reaches, a group broadcast source that is not uniform, a warp
// broadcast from a lane that does not exist.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=TOOL --implicit-check-not="{{warning|error}}:"
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref | FileCheck %s --match-full-lines
// RUN: env HPP_CPU_MVECTOR=64 %t.ref | FileCheck %s --match-full-lines
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | FileCheck %s --match-full-lines
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | FileCheck %s --match-full-lines
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

void report(const char *What, const RuntimeError *E) {
  std::printf("%s: %s\n", What, E ? E->what() : "no error");
}

int main() {
  Pointer<int> out = allocate<int>(96);
  try {
    parallelFor(Range<1, 1>(96, 96), [=](Index<1, 1> i) __device(hpp) {
      if (i.getLocalX() >= 40)
        return;
      out[i.getX()] = groupReduce(1, Plus<int>());
    });
    report("exit", nullptr);
  } catch (const RuntimeError &E) {
    report("exit", &E);
  }
  // TOOL: collectives-misuse.cpp:[[@LINE-6]]:23: warning: work-group collective 'groupReduce' in control flow that depends on the work-item id; every work-item of the work-group must call it (it waits at the work-group barrier) [hpp-barrier-divergence]
  // TOOL: note: some work-items return early under this condition, which depends on the work-item id
  // CHECK: exit: {{.*}}collectives-misuse.cpp:[[@LINE-8]]: groupReduce failed: work-group collective reached by work-items 0-39 only; work-items 40-95 exited without calling it (work-group of 96); every work-item of the range must call it, uniformly
  try {
    parallelFor(Range<1, 1>(96, 96), [=](Index<1, 1> i) __device(hpp) {
      if (i.getLocalX() % 2 == 0)
        out[i.getX()] = groupInclusiveScan(1, Plus<int>());
      else
        out[i.getX()] = groupInclusiveScan(2, Plus<int>());
    });
    report("two lines", nullptr);
  } catch (const RuntimeError &E) {
    report("two lines", &E);
  }
  // TOOL: collectives-misuse.cpp:[[@LINE-8]]:25: warning: work-group collective 'groupInclusiveScan'
  // TOOL: note: this condition depends on the work-item id
  // TOOL: collectives-misuse.cpp:[[@LINE-8]]:25: warning: work-group collective 'groupInclusiveScan'
  // TOOL: note: this condition depends on the work-item id
  // CHECK: two lines: {{.*}}collectives-misuse.cpp:[[@LINE-12]]: groupInclusiveScan failed: work-group barrier reached by work-items 0,2,{{.*}},94 only; work-item 1 waits at groupInclusiveScan at {{.*}}collectives-misuse.cpp:[[@LINE-10]] {{.*}}
  try {
    parallelFor(Range<1, 1>(96, 96), [=](Index<1, 1> i) __device(hpp) {
      int v = 1;
      if (i.getLocalX() % 3 == 0)
        v = warpReduce(v, Plus<int>());
      out[i.getX()] = v;
    });
    report("warp", nullptr);
  } catch (const RuntimeError &E) {
    report("warp", &E);
  }
  // TOOL: collectives-misuse.cpp:[[@LINE-7]]:13: warning: warp collective 'warpReduce' in control flow that depends on the work-item id; on AMD every active lane of the wavefront must take part [hpp-divergent-warp-op]
  // TOOL: note: this condition depends on the work-item id
  // CHECK: warp: {{.*}}collectives-misuse.cpp:[[@LINE-9]]: warpReduce failed: {{.*}}mvector 0 (width {{32|64}}){{.*}}
  try {
    parallelFor(Range<1, 1>(96, 96), [=](Index<1, 1> i) __device(hpp) {
      out[i.getX()] = groupBroadcast(7, i.getLocalX() / 50);
    });
    report("source", nullptr);
  } catch (const RuntimeError &E) {
    report("source", &E);
  }
  // CHECK: source: {{.*}}collectives-misuse.cpp:[[@LINE-6]]: groupBroadcast failed: work-items pass different sources (0 and 1); the source must be uniform
  try {
    parallelFor(Range<1, 1>(96, 96), [=](Index<1, 1> i) __device(hpp) {
      out[i.getX()] = warpBroadcast(7, 70);
    });
    report("lane", nullptr);
  } catch (const RuntimeError &E) {
    report("lane", &E);
  }
  // CHECK: lane: {{.*}}collectives-misuse.cpp:[[@LINE-6]]: warpBroadcast failed: lane 70 is not a lane of the mvector (width {{32|64}})
}
