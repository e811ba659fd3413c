// A dialect program that includes the header first (after standard
// headers): test/tool/cxx-pch.test compiles it with the header precompiled.
#include <cstdio>
#include <hpp/hpp.h>
/* a comment */

int main() {
  hpp::Pointer<int> out = hpp::allocate<int>(64);
  hpp::parallelFor(hpp::Range<1>(64), [=](hpp::Index<1> i) __device(hpp) {
    out[i.getX()] = int(i.getX()) * 3;
  });
  int sum = 0;
  for (int k = 0; k < 64; ++k)
    sum += out[k];
  std::printf("sum=%d mvector=%d\n", sum, int(MVECTOR_SIZE));
  return 0;
}
