// A `__LINE__` inside a macro of the main file takes the line of the
// macro's use, which the tool cannot edit. The output's `#line` directives
// keep that line's number, so the value is the input's, with no warning
// (hpp-source-position): above a kernel inserted before its function, after
// a parallelFor, inside a body. Where the output's lines do drift, the
// warning is at the use, and the value does change: here, code on the
// line where a parallelFor that took lines away ends (a directive can only
// start a line). The rewritten program prints what the dialect program
// prints, but for the warned line.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref.out
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.ref.out
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=64 %t.exe > %t.gen.out
// RUN: grep -v '^drifted' %t.ref.out > %t.ref.kept
// RUN: grep -v '^drifted' %t.gen.out > %t.gen.kept
// RUN: diff %t.ref.kept %t.gen.kept
// RUN: not diff %t.ref.out %t.gen.out
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;

#define LINE_OF_USE __LINE__

int main() {
  Pointer<int> lines = allocate<int>(4);
  const int before = LINE_OF_USE;
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    lines[i.getX()] = LINE_OF_USE;
  });
  const int after = LINE_OF_USE;
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    lines[i.getX()] += 1;
  }); const int drifted = LINE_OF_USE;
  // CHECK-MESSAGES: line-macro-drift.cpp:[[@LINE-1]]:27: warning: '__LINE__' in a macro of the main file: the output gives this line another number than the input {{.*}} [hpp-source-position]
  std::printf("before %d\n", before);
  std::printf("body %d\n", lines[3]);
  std::printf("after %d\n", after);
  std::printf("drifted %d\n", drifted);
  deallocate(lines);
}
// OUT: before 30
// OUT-NEXT: body 33
// OUT-NEXT: after 34
// OUT-NEXT: drifted 37
