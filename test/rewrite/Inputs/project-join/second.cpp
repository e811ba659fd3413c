// A kernel that calls chain.h's sumWarp, which reads the real width and
// calls xorStep: alone it would run on whole wavefronts.
#include <hpp/hpp.h>
#include "chain.h"
using namespace hpp;
void runSecond(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = sumWarp(int(i.getX()));
  });
}
