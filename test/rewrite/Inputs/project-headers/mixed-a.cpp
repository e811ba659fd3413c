// A kernel that runs as written (a 64-bit mask with a 32-lane fact), for
// project-headers.test: mixed-b.cpp's narrowed kernel is warned.
#include <hpp/hpp.h>

using namespace hpp;

void runMixedA(Pointer<unsigned long long> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    p[x] = __ballot_sync(~0ull, (x & 31) == 0) + warpSize;
  });
}
