// Calls lanes.h's laneId() from a kernel (project-headers-host-width.test).
#include <hpp/hpp.h>

#include "lanes.h"

using namespace hpp;

void run(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = laneId(int(i.getX())) == int(i.getX()) % warpSize;
  });
}
