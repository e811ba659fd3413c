// A kernel with a 32-lane fact and one that uses the real width, which
// the first narrows (project-headers.test): beside mixed-a.cpp's kernel,
// which runs as written, the narrowed one is warned.
#include <hpp/hpp.h>

using namespace hpp;

void runMixedB(Pointer<int> p, Pointer<int> q, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    p[x] = __shfl_xor_sync(0xffffffffu, x, 16);
  });
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    q[x] = x / warpSize;
  });
}
