#include <hpp/hpp.h>
using namespace hpp;

void incr(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i.getX()] += 1; });
}
