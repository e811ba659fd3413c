// Calls width() from a kernel that keeps 32-lane warps (the literal 32).
#include <hpp/hpp.h>

#include "width.h"

using namespace hpp;

void runA(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    p[x] = width() + __shfl_sync(0xffffffffu, x, 0) - (x - x % 32);
  });
}
