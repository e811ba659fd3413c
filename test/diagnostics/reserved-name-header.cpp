// hpp-reserved-name checks the project headers too (they are rewritten
// with the source, and the output of each includes the CUDA or HIP
// headers): the error is at the header's declaration. A header outside the
// project root is not checked (nor rewritten).
// RUN: rm -rf %t && mkdir -p %t/p && cp %s %t/p/main.cpp && cp -r %S/Inputs/reserved %t/p/reserved
// RUN: not %hpp_rewrite %t/p/main.cpp --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t/out
// CHECK-MESSAGES: vec.h:5:8: error: 'int2' is declared at global scope by the CUDA and HIP headers that the rewritten file includes, so the output would not compile [hpp-reserved-name]
// RUN: %cxx -I %hpp_include -fsyntax-only %s -I %S/Inputs

#include <hpp/hpp.h>

#include "reserved/vec.h"

int main() { return int2{1, 2}.x - 1; }
