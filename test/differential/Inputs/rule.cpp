//===- test/differential/Inputs/rule.cpp - Input of runner.test -----------===//
//
// Part of hpp-rewrite. A program in the shape scripts/warpgen.py writes:
// kernels between marker comments, one `kernel <id>: ...` line each. Every
// kernel is right at 32 lanes; kernels 3-6 print a wrong value at 64 lanes
// (they stand for code right on NVIDIA only). fake-tool.py "rewrites" it
// into a program that prints chosen lines, so that runner.test checks how
// scripts/difftest.py judges each case.
//
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>

using namespace hpp;

/// The width a kernel sees: 32 or 64.
static int widthSeen() {
  Pointer<int> w = allocate<int>(1);
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    if (i.getX() == 0)
      w[0] = warpSize;
  });
  int W = w[0];
  deallocate(w);
  return W;
}

static void check(int Id, bool RightAt64) {
  if (RightAt64 || widthSeen() == 32)
    std::printf("kernel %d: ok\n", Id);
  else
    std::printf("kernel %d: MISMATCH at 0: got 64 expected 32\n", Id);
}

// warpgen kernel 1: lines 38-40, family test, style cuda32, expect64 ok (right everywhere; rewritten right)
static void kernel1() { check(1, true); }
// warpgen end kernel 1
// warpgen kernel 2: lines 41-43, family test, style cuda32, expect64 ok (right everywhere; rewritten wrong at 64)
static void kernel2() { check(2, true); }
// warpgen end kernel 2
// warpgen kernel 3: lines 44-46, family test, style mixed, expect64 wrong (wrong at 64; rewritten right)
static void kernel3() { check(3, false); }
// warpgen end kernel 3
// warpgen kernel 4: lines 47-49, family test, style mixed, expect64 wrong (wrong at 64; rewritten wrong, no warning)
static void kernel4() { check(4, false); }
// warpgen end kernel 4
// warpgen kernel 5: lines 50-52, family test, style mixed, expect64 wrong (wrong at 64; rewritten wrong, warned)
static void kernel5() { check(5, false); }
// warpgen end kernel 5
// warpgen kernel 6: lines 53-55, family test, style mixed, expect64 ok (wrong at 64, predicted right; rewritten wrong at 32)
static void kernel6() { check(6, false); }
// warpgen end kernel 6

int main() {
  kernel1();
  kernel2();
  kernel3();
  kernel4();
  kernel5();
  kernel6();
  return 0;
}
