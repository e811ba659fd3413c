#include <hpp/hpp.h>
using namespace hpp;
void f(Pointer<int> p) {
  parallelFor(Range<1>(4), [=](Index<1> i) { p[i.getX()] = 1; });
}
