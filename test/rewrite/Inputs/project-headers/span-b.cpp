// Calls span() from a kernel; compiled without SPAN_FROM_WARP (project-headers.test).
#include <hpp/hpp.h>

#include "span.h"

using namespace hpp;

void runB(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = span();
  });
}
