// One source of the project: a kernel calls twice() and laneOf().
#include <hpp/hpp.h>

#include "algo.h"
#include "helpers.h"

using namespace hpp;

void scale(Pointer<float> p, Pointer<int> lane, int n) {
  parallelFor(Range<1, 1>(n, MVECTOR_SIZE), [=](Index<1, 1> i) __device(hpp) {
    int x = int(i.getX());
    p[x] = twice(p[x]);
    lane[x] = laneOf(x) == int(i.getLocalX()) % MVECTOR_SIZE;
  });
}

/// The header's kernels from this source too.
void fillAndDouble(Pointer<float> p, int n) {
  fill(p, n, 2.0f);
  transform(p, n, Twice());
}
