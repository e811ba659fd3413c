// A constant whose value comes through the preprocessor, which the body
// needs as a constant expression, and whose declaration the kernel cannot
// repeat (it is chosen by #ifdef, or its initialiser calls a function, which
// nvcc would not compile in a kernel), is refused at its declaration: the kernel would hold the
// value the tool saw, which another build of the output may not share.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>

using namespace hpp;

#define HPPN 3

constexpr int twice(int X) { return 2 * X; }

void chosen(Pointer<int> Out) {
#ifdef NDEBUG
  const int Mode = 1;
#else
  const int Mode = 2;
#endif
  // CHECK-MESSAGES: build-dependent-constant.cpp:[[@LINE-2]]:13: error: cannot outline: the body needs 'Mode' as a constant expression (line [[@LINE+2]]), and its value may differ in the build that compiles the output: it is declared inside an #if block (line [[@LINE-2]]); the kernel can neither receive it from the host nor repeat its declaration. Declare it constexpr at namespace scope, where the kernel names it, or compute it in the body [hpp-parallel-for]
  parallelFor(Range<1>(1), [=](Index<1> i) __device(hpp) {
    int Buf[Mode];
    Buf[0] = 1;
    Out[0] = Buf[0];
  });
}

void called(Pointer<int> Out) {
  const int Local = twice(HPPN);
  // CHECK-MESSAGES: build-dependent-constant.cpp:[[@LINE-1]]:13: error: cannot outline: the body needs 'Local' as a constant expression (line [[@LINE+2]]), and its value may differ in the build that compiles the output: it calls 'twice' (line [[@LINE-1]]){{.*}}[hpp-parallel-for]
  parallelFor(Range<1>(1), [=](Index<1> i) __device(hpp) {
    int Buf[Local];
    Buf[0] = 1;
    Out[0] = Buf[0];
  });
}
