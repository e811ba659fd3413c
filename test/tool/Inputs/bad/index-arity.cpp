#include <hpp/hpp.h>
using namespace hpp;
void f(Pointer<int> p) {
  parallelFor(Range<1>(4), [=](Index<2> i) __device(hpp) { p[i.getX()] = 1; });
}
