// What hpp-task cannot lower is an error at the right place, and nothing is
// written: a body that is not a lambda written in the construction, a Task
// or its lambda written through a macro, a Task made in device code, a
// lambda that does not take one Index, a Task in a variable template's
// initialiser (the message names the Task, not a parallelFor), a result
// type or channel element that is not trivially copyable (std::string,
// std::pair: made in device code, copied byte for byte between device and
// host memory), a __device(hpp) lambda from which a call makes a Task out of
// sight (`emplace_back` on a vector of Tasks, `std::make_shared`: the output
// would keep a lambda where the runtime's Task takes a kernel). A Task that writes a channel:
// test/diagnostics/channel-errors.cpp.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out
// RUN: not %hpp_rewrite %s 2>&1 | FileCheck %s --check-prefix=VALUES

#include <hpp/hpp.h>

#include <memory>
#include <string>
#include <utility>
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

void values(Pointer<int> n) {
  Task<std::string, Index<1>> s([=](Index<1> i) __device(hpp) -> std::string { return std::string(); });
  // VALUES-DAG: task-errors.cpp:[[@LINE-1]]:31: error: the result type of this Task cannot be rewritten: 'std::string' is not trivially copyable: its values are made in device code and copied between device and host memory byte for byte; use a trivially copyable type (a struct of its members for a std::pair, a fixed-size array for a std::string or a std::vector) [hpp-task]
  Task<std::pair<int, float>, Index<1>> p([=](Index<1> i) __device(hpp) -> std::pair<int, float> { return {1, 0.5f}; });
  // VALUES-DAG: task-errors.cpp:[[@LINE-1]]:41: error: the result type of this Task cannot be rewritten: 'std::pair<int, float>' is not trivially copyable{{.*}}[hpp-task]
  Channel<std::pair<int, int>> c(8);
  c.executeWith([=](Channel<std::pair<int, int>> *c) -> bool __device(coord) { return c->size() >= 4; }, Range<1>(1),
                [=](Index<1> i, std::vector<std::pair<int, int>> data) __device(hpp) { atomicAdd(&n[0], data[0].first); });
  // VALUES-DAG: task-errors.cpp:[[@LINE-2]]:3: error: the element type of this channel cannot be rewritten: 'std::pair<int, int>' is not trivially copyable{{.*}}[hpp-channel]
  Task<bool, Index<1>> b([=](Index<1> i) __device(hpp) -> bool { return i.getX() % 2 == 0; });
  // VALUES-NOT: task-errors.cpp:[[@LINE-1]]:{{.*}}error
}

void containers(Pointer<int> p) {
  std::vector<Task<void, Index<1>>> ts;
  ts.emplace_back([=](Index<1> i) __device(hpp) { p[i] = 5; });
  // VALUES-DAG: task-errors.cpp:[[@LINE-1]]:19: error: this __device(hpp) lambda makes a Task in 'std::vector<hpp::Task<void, hpp::Index<1>>>::emplace_back', not in a Task construction written in the source, so the rewrite cannot outline it into the Task's kernel; construct the Task with the lambda (`Task<R, I> t([=](I i) __device(hpp) { ... });`) and pass the Task [hpp-task]
  auto shared = std::make_shared<Task<void, Index<1>>>([=](Index<1> i) __device(hpp) { p[i] = 6; });
  // VALUES-DAG: task-errors.cpp:[[@LINE-1]]:56: error: this __device(hpp) lambda makes a Task in 'std::make_shared'{{.*}}[hpp-task]
  Task<void, Index<1>> t([=](Index<1> i) __device(hpp) { p[i] = 7; });
  ts.push_back(t);
  (void)shared;
}

// The same in a template, where the call is resolved only when the
// template is instantiated: the container's or the function's template
// arguments name a Task.
template <typename T> void containersOf(Pointer<T> p) {
  std::vector<Task<T, Index<1>>> ts;
  ts.emplace_back([=](Index<1> i) __device(hpp) -> T { return p[i]; });
  // VALUES-DAG: task-errors.cpp:[[@LINE-1]]:19: error: this __device(hpp) lambda makes a Task in 'emplace_back', not in a Task construction{{.*}}[hpp-task]
  auto shared = std::make_shared<Task<T, Index<1>>>([=](Index<1> i) __device(hpp) -> T { return p[i]; });
  // VALUES-DAG: task-errors.cpp:[[@LINE-1]]:53: error: this __device(hpp) lambda makes a Task in 'make_shared'{{.*}}[hpp-task]
  std::vector<Task<int, Index<1>>> fixed;
  fixed.emplace_back([=](Index<1> i) __device(hpp) -> int { return int(p[i]); });
  // VALUES-DAG: task-errors.cpp:[[@LINE-1]]:22: error: this __device(hpp) lambda makes a Task in 'emplace_back'{{.*}}[hpp-task]
  (void)shared;
}
template void containersOf<int>(Pointer<int>);
