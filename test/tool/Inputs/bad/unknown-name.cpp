#include <hpp/hpp.h>
using namespace hpp;
void f(Pointer<int> p) {
  parallelForr(Range<1>(4), [=](Index<1> i) __device(hpp) { p[i.getX()] = 1; });
}
