// Calls lanes() from a kernel that keeps 32-lane warps (the literal 16).
#include <hpp/hpp.h>

#include "lanes.h"

using namespace hpp;

void runA(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    p[x] = lanes() + __shfl_xor_sync(0xffffffffu, x, 16);
  });
}
