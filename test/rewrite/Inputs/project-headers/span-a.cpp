// Calls span() from a kernel; compiled with -DSPAN_FROM_WARP=1 (project-headers.test).
#include <hpp/hpp.h>

#include "span.h"

using namespace hpp;

void runA(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = span();
  });
}
