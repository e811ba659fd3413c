// The tool rewrites only the file it is given. Dialect code in a project
// header, and the dialect header included through one, would reach the
// output as written (the CPU reference beside the device runtime, or
// `__device(hpp)` that means nothing there): errors that name the header.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out
// The same program runs on the CPU reference.
// RUN: %cxx -I %hpp_include %s -o %t.ref && %t.ref | FileCheck %s --check-prefix=OUT

#include "Inputs/includes-hpp.h"
// CHECK-MESSAGES: project-headers.cpp:[[@LINE-1]]:10: error: 'hpp/hpp.h' is included through 'includes-hpp.h', which hpp-rewrite does not rewrite: the output would include the CPU reference beside the device runtime; include <hpp/hpp.h> in this file only, and keep the dialect code of 'includes-hpp.h' in this file [hpp-include]
// CHECK-MESSAGES: includes-hpp.h:3:1: note: 'includes-hpp.h' includes it here
#include "Inputs/dialect-code.h"
// CHECK-MESSAGES: dialect-code.h:3:26: error: cannot rewrite code in 'dialect-code.h': hpp-rewrite rewrites only the file it is given; move the dialect code of this header into that file [hpp-include]
#include <cstdio>
using namespace hpp;

int main() {
  Pointer<int> p = allocate<int>(64);
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = square(plusOne(2));
  });
  std::printf("%d\n", int(p[5]));
  // OUT: 9
}
