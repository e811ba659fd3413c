// Calls lanes() from a kernel that mixes a 64-bit mask with 32-lane facts:
// it runs as written (AsWritten), with the device's warpSize, and so does
// join-a.cpp's kernel, which shares lanes() (project-headers.test).
#include <hpp/hpp.h>

#include "lanes.h"

using namespace hpp;

void runB(Pointer<unsigned long long> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    p[x] = __ballot_sync(~0ull, x % 32 == 0) + lanes();
  });
}
