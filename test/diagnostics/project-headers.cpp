// Headers outside the project root (--root; by default the directory that
// holds the sources) are never rewritten. Dialect code in one, and the
// dialect header included through one, would reach the output as written
// (the CPU reference beside the device runtime, or `__device(hpp)` that
// means nothing there): errors that name the header and the root. Here
// the source is copied to %t/p and finds Inputs/ through -I.
// RUN: rm -rf %t && mkdir -p %t/p && cp %s %t/p/project-headers.cpp
// RUN: not %hpp_rewrite %t/p/project-headers.cpp -o %t.out -- -I %S 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out
// The same program runs on the CPU reference.
// RUN: %cxx -I %hpp_include %s -o %t.ref && %t.ref | FileCheck %s --check-prefix=OUT
// With a root that holds them, the headers are rewritten too (-o cannot
// hold them: --output-dir).
// RUN: cp -r %S/Inputs %t/Inputs
// RUN: %hpp_rewrite %t/p/project-headers.cpp --root %t --output-dir %t/out -- -I %t
// RUN: grep -q 'hpp/runtime.h' %t/out/Inputs/includes-hpp.h

#include "Inputs/includes-hpp.h"
// CHECK-MESSAGES: project-headers.cpp:[[@LINE-1]]:10: error: 'hpp/hpp.h' is included through 'includes-hpp.h', which hpp-rewrite does not rewrite (it lies outside the project root '{{.*}}/p'): the output would include the CPU reference beside the device runtime; give a root that holds 'includes-hpp.h' (--root) [hpp-include]
// CHECK-MESSAGES: includes-hpp.h:3:1: note: 'includes-hpp.h' includes it here
#include "Inputs/dialect-code.h"
// CHECK-MESSAGES: dialect-code.h:3:26: error: cannot rewrite code in 'dialect-code.h': it lies outside the project root '{{.*}}/p', and hpp-rewrite rewrites only the sources and the headers under the root; give a root that holds it (--root) [hpp-include]
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
