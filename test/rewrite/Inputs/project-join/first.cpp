// A kernel with a 32-lane fact (the literal 16) that calls chain.h's
// xorStep.
#include <hpp/hpp.h>
#include "chain.h"
using namespace hpp;
void runFirst(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    p[x] = xorStep(x, 16);
  });
}
