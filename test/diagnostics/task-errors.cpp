// What hpp-task cannot lower is an error at the right place, and nothing is
// written: a body that is not a lambda written in the construction, a Task
// or its lambda written through a macro, a Task made in device code, a
// lambda that does not take one Index, a Task in a variable template's
// initialiser (the message names the Task, not a parallelFor). A Task that
// writes a channel: test/diagnostics/channel-errors.cpp.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>

#include <vector>

using namespace hpp;

#define MAKE_TASK(name, body) Task<int, Index<1>> name(body)
#define BODY [=](Index<1> i) __device(hpp) { return int(i); }

void notLiteral(Pointer<int> p) {
  auto body = [=](Index<1> i) __device(hpp) { return p[i]; };
  Task<int, Index<1>> t(body);
  // CHECK-MESSAGES: task-errors.cpp:[[@LINE-1]]:25: error: the body of a Task must be a lambda expression written in the Task's construction, its only argument [hpp-task]
}

void throughMacros() {
  MAKE_TASK(m, [=](Index<1> i) __device(hpp) { return int(i) + 1; });
  // CHECK-MESSAGES: task-errors.cpp:[[@LINE-1]]:3: error: cannot rewrite a Task constructed through a macro; expand the macro at this construction by hand [hpp-task]
  Task<int, Index<1>> t(BODY);
  // CHECK-MESSAGES: task-errors.cpp:[[@LINE-1]]:25: error: cannot outline a Task body written through a macro; write the lambda in the construction [hpp-task]
}

__device(hpp) int inDevice(Pointer<int> p) {
  Task<int, Index<1>> t([=](Index<1> i) __device(hpp) { return p[i]; });
  // CHECK-MESSAGES: task-errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: a Task inside device code cannot be rewritten: its kernel is launched from the host (HIP has no launch from device code); make the Task in host code [hpp-task]
  return 0;
}

void inBody(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    Task<void, Index<1>> t([=](Index<1> j) __device(hpp) { p[j] = 1; });
    // CHECK-MESSAGES: task-errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: a Task inside device code cannot be rewritten{{.*}}[hpp-task]
  });
}

void twoParameters(Pointer<int> p) {
  Task<int, Index<1>> t([=](Index<1> i, int k = 2) __device(hpp) { return p[i] * k; });
  // CHECK-MESSAGES: task-errors.cpp:[[@LINE-1]]:25: error: the lambda of a Task<R, IndexT> must take one parameter, its IndexT (hpp::Index<N> or hpp::Index<N, N>); this one takes 2 [hpp-task]
}

// The outliner's placement errors name the construct involved.
template <class T>
T fromTask = (Task<int, Index<1>>([](Index<1> i) __device(hpp) { return int(i); }), T());
// CHECK-MESSAGES: task-errors.cpp:[[@LINE-1]]:35: error: cannot outline: a Task in a variable template's initialiser; call it from a function [hpp-task]

int useFromTask() { return fromTask<int>; }
