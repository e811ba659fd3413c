// The output moves code (each body into a kernel, kernels inserted above
// their function), so source positions keep their input values:
// `__LINE__` written in the file becomes its line number, and `__func__`
// in a body becomes the string it names in the input (the lambda's call
// operator), not the kernel's name. A `__LINE__` in a macro of the file,
// not editable, keeps its value through `#line` directives, no warning
// (line-macro-drift.cpp). The output, as `.cu`, rewrites to itself.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: cp %t.cpp %t.cu
// RUN: %hpp_rewrite %t.cu 2>/dev/null | diff %t.cu -
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32.out
// RUN: env HPP_CPU_MVECTOR=64 %t.ref > %t.ref.out
// RUN: diff %t.ref32.out %t.ref.out
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.ref.out
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe > %t.gen32.out
// RUN: env HPP_CPU_MVECTOR=64 %t.exe > %t.gen.out
// RUN: diff %t.ref.out %t.gen32.out
// RUN: diff %t.ref.out %t.gen.out
// RUN: %gpu_check %t.cpp
// The checks below name lines of this file: a line added above them
// moves every one.

#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;

#define LINE_OF_USE __LINE__

int main() {
  Pointer<int> lines = allocate<int>(4);
  Pointer<char> name = allocate<char>(64);
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    lines[i.getX()] = __LINE__;
    if (i.getX() == 0)
      for (int k = 0; k < 11; ++k)
        name[k] = __func__[k];
  });
  // CHECK: lines[i.getX()] = 36;
  // CHECK: name[k] = "operator()"[k];
  std::printf("body line %d, host line %d, body function %s\n", lines[3],
              __LINE__, &name[0]);
  // CHECK: std::printf("body line %d, host line %d, body function %s\n", lines[3],
  // CHECK-NEXT: 44, &name[0]);
  std::printf("macro line %d\n", LINE_OF_USE);
  deallocate(lines);
  deallocate(name);
}
// OUT: body line 36, host line 44, body function operator()
// OUT-NEXT: macro line 47
