// What the outliner cannot lower is an error at the right place: a body
// that is not a lambda written in the call, a capture of 'this', a capture
// whose type is local to the function.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

void notLiteral(Pointer<int> p, int n) {
  auto body = [=](Index<1> i) __device(hpp) { p[i.getX()] = 1; };
  parallelFor(Range<1>(n), body);
  // CHECK-MESSAGES: unsupported-lambda.cpp:[[@LINE-1]]:3: error: the body of parallelFor must be a lambda expression written in the call [hpp-parallel-for]
}

struct Grid {
  Pointer<int> cells;
  void clear(int n) {
    parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { cells[i.getX()] = 0; });
    // CHECK-MESSAGES: unsupported-lambda.cpp:[[@LINE-1]]:62: error: cannot outline: the lambda captures 'this'{{.*}}[hpp-parallel-for]
  }
};

void localType(Pointer<int> p, int n) {
  struct Local { int v; } l{3};
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i.getX()] = l.v; });
  // CHECK-MESSAGES: unsupported-lambda.cpp:[[@LINE-1]]:{{[0-9]+}}: error: cannot outline: a capture has type 'struct Local'{{.*}}[hpp-parallel-for]
}
