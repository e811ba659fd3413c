// A translation unit with a compile error is never rewritten: clang's
// diagnostic, exit status 1, and the output file (or the source, with
// --in-place) is left untouched.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out
// RUN: cp %s %t.src.cpp && cp %s %t.orig.cpp
// RUN: not %hpp_rewrite --in-place %t.src.cpp 2>/dev/null
// RUN: diff %t.orig.cpp %t.src.cpp
// RUN: echo existing > %t.keep
// RUN: not %hpp_rewrite %s -o %t.keep 2>/dev/null
// RUN: FileCheck %s --check-prefix=KEEP < %t.keep
// KEEP: existing

#include <hpp/hpp.h>
using namespace hpp;

void broken(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = undeclared_name;
  });
  // CHECK-MESSAGES: syntax-error.cpp:[[@LINE-2]]:19: error: use of undeclared identifier 'undeclared_name'
}
// CHECK-MESSAGES: hpp-rewrite: error: rewriting failed; no output written
