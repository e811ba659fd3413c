// A kernel that uses the real width and shares no code with narrow-a.cpp's
// (project-headers.test): the warp is one thing in a program, so it keeps
// 32-lane warps with it.
#include <hpp/hpp.h>

using namespace hpp;

void runC(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int x = int(i.getX());
    p[x] = x / warpSize;
  });
}
