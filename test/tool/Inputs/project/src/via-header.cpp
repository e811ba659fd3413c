// Includes hpp/hpp.h only through sub/dialect.h: --all takes it.
#include "sub/dialect.h"
using namespace hpp;

void zero(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i.getX()] = 0; });
}
