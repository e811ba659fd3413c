#include <hpp/hpp.h>
using namespace hpp;

void seven(Pointer<int> p) {
  parallelFor(Range<1>(HPP_TEST_N), [=](Index<1> i) __device(hpp) { p[i.getX()] = 7; });
}
