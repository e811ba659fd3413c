// A function that launches a kernel keeping 32-lane warps (it reads
// MVECTOR_SIZE, narrowed to 32 by a literal 32 in its lane arithmetic) and
// also computes a value from the device's width: on a 64-lane device the
// two disagree (here, 4 group slots for 8 work-groups). The launch's own
// range is narrowed with it (rewrite/narrowed-launch.cpp); the other use is
// a warning at its line, with a note at the kernel's 32-lane fact.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: grep -q 'hpp::warp32::size), G)' %t.cpp

#include <hpp/hpp.h>

using namespace hpp;

int slots(std::size_t n) {
  std::size_t groups = n / MVECTOR_SIZE;
  // CHECK-MESSAGES: narrowed-launch-host-width.cpp:[[@LINE-1]]:28: warning: this is the device's width (64 on a wave64 GPU), but a kernel this function launches keeps 32-lane warps and reads the width as 32: a value computed here and passed to that kernel disagrees with it on 64-lane devices [hpp-host-warp-size]
  // CHECK-MESSAGES: narrowed-launch-host-width.cpp:[[@LINE+5]]:25: note: the kernel assumes 32-lane warps here: the literal '32'
  // CHECK-MESSAGES: note: write 32 here if the value is for that kernel
  Pointer<int> G = allocate<int>(groups);
  parallelFor(Range<1, 1>(n, MVECTOR_SIZE), [=](Index<1, 1> i) __device(hpp) {
    // CHECK-MESSAGES: narrowed-launch-host-width.cpp:[[@LINE-1]]:30: remark: the launched kernel keeps 32-lane warps
    if (i.getLocalX() % 32 == 0 && i.getLocalX() < MVECTOR_SIZE)
      G[i.getGroupX()] = 1;
  });
  int s = 0;
  for (std::size_t k = 0; k < groups; ++k)
    s += G[k];
  deallocate(G);
  return s;
}

/// No kernel of this function keeps 32-lane warps: no warning.
std::size_t plain(std::size_t n) { return n / MVECTOR_SIZE; }
// CHECK-MESSAGES-NOT: narrowed-launch-host-width.cpp:[[@LINE-1]]:{{[0-9]+}}: warning:
// CHECK-MESSAGES: 1 warning generated.
