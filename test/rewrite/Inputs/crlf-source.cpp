// The input of crlf.test, given CRLF line endings there.
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;

int main() {
  Pointer<int> p = allocate<int>(64);
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = MVECTOR_SIZE + 1;
  });
  std::printf("%d\n", int(p[5]) == MVECTOR_SIZE + 1);
}
