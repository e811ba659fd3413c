// A body's macros mean in the outlined kernel what they mean where the body
// is written, although the kernel goes above the function (or after the
// class): a macro redefined inside the function before the bodies that use
// it, one #define'd inside main, one the function #undef's and whose name a
// body then uses as a variable, one that expands another redefined one, a
// `#ifdef` in a body. (A body that defines or removes a macro itself is
// refused: test/diagnostics/macro.cpp.) The kernel gets
// the body's definitions (#pragma push_macro / #define) and gives back the
// ones of its place (#pragma pop_macro / #undef). Reference and rewritten
// print the same at 32 and 64 lanes; the output compiles for sm_90, gfx90a
// and gfx1030.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I%hpp_include %s -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.gen
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=64 %t.ref > %t.ref64
// RUN: env HPP_CPU_MVECTOR=32 %t.gen | diff %t.ref32 -
// RUN: env HPP_CPU_MVECTOR=64 %t.gen | diff %t.ref64 -
// RUN: FileCheck %s --check-prefix=OUT < %t.ref32
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

#define SCALE 2
#define OFFSET (BASE + 1)
#define BASE 100
#define count 7

/// SCALE is 3 from here on in this function: the task, the parallelFor and
/// the consumer see 3, as the reference does.
static void redefined(Pointer<int> Out) {
#undef SCALE
#define SCALE 3
  Task<int, Index<1>> T([=](Index<1> i) __device(hpp) -> int { return SCALE * 3; });
  std::vector<int> R = T.enqueue(Range<1>(1)).get();
  parallelFor(Range<1>(1), [=](Index<1> i) __device(hpp) { Out[0] = SCALE * 4; });
  Channel<int> C(8);
  C.executeWith([=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 2; },
                Range<1>(1), [=](Index<1> i, Span<int> d) __device(hpp) {
                  atomicAdd(&Out[1], (d[0] + d[1]) * SCALE);
                });
  parallelFor(Range<1>(8), [=, &C](Index<1> i) __device(hpp) { C.write(int(i.getX())); });
  std::printf("task=%d pfor=%d chan=%d\n", R[0], Out[0], Out[1]);
}
// CHECK: #pragma push_macro("SCALE")
// CHECK-NEXT: #undef SCALE
// CHECK-NEXT: #define SCALE 3
// CHECK: __global__ void hpp_redefined_task0(
// CHECK: #pragma pop_macro("SCALE")

/// A function-like macro defined inside main, and a name main #undef's
/// and then uses for a variable; BASE redefined under OFFSET.
int main() {
  const int n = 4;
  Pointer<int> P = allocate<int>(n * n);
#define IDX(r, c) ((r) * n + (c))
#undef count
#undef BASE
#define BASE 10
  int count = 5;
  parallelFor(Range<2>(n, n), [=](Index<2> i) __device(hpp) {
    P[IDX(i.getY(), i.getX())] = int(i.getX() + 10 * i.getY()) + count + OFFSET;
#ifdef IDX
    P[IDX(i.getY(), i.getX())] += 1000;
#endif
    P[IDX(i.getY(), i.getX())] = 2 * P[IDX(i.getY(), i.getX())];
  });
#undef IDX
  long Sum = 0;
  for (int k = 0; k < n * n; ++k)
    Sum += P[k] * (k + 1);
  std::printf("sum=%ld\n", Sum);
  // OUT: sum=282480
  Pointer<int> Out = allocate<int>(2);
  redefined(Out);
  // OUT-NEXT: task=9 pfor=12 chan=84
  return 0;
}
// CHECK: #define IDX(r, c) ((r) * n + (c))
// CHECK: __global__ void hpp_main_pfor0(
// CHECK: #undef IDX
