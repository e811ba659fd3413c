// Code produced by a macro expansion is never edited: a parallelFor written
// through a macro is an error at the expansion; a __device(hpp) spelled
// through the user's own macro is rewritten at the macro's use; a body that
// defines or removes a macro is refused.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

#define LAUNCH(n, body) parallelFor(Range<1>(n), body)

void m(Pointer<int> p, int n) {
  LAUNCH(n, [=](Index<1> i) __device(hpp) { p[i.getX()] = 1; });
  // CHECK-MESSAGES: macro.cpp:[[@LINE-1]]:3: error: cannot rewrite a parallelFor written through a macro; expand the macro at this call by hand [hpp-parallel-for]
}

// A body that defines or removes a macro: the directive would move into the
// kernel, and the code after the body would not see it.
void directives(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
#define TWICE(x) (2 * (x))
    p[i.getX()] = TWICE(1);
  });
  // CHECK-MESSAGES: macro.cpp:[[@LINE-3]]:1: error: cannot outline the parallelFor at macro.cpp:[[@LINE-4]]:3: its body defines or removes the macro 'TWICE', and the body becomes a kernel away from the code that follows it; write the directive before the parallelFor [hpp-parallel-for]
  p[0] = TWICE(p[0]);
}
