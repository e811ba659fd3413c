// Calls width() from a kernel at the target's width.
#include <hpp/hpp.h>

#include "width.h"

using namespace hpp;

void runB(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = width();
  });
}
