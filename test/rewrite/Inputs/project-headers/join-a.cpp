// Calls lanes() from a kernel with a 32-lane fact (the literal 16); with
// join-b.cpp's, which shares lanes(), one component (project-headers.test).
#include <hpp/hpp.h>

#include "lanes.h"

using namespace hpp;

void runA(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    p[x] = lanes() + __shfl_xor_sync(0xffffffffu, x, 16);
  });
}
