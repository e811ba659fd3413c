// A macro defined before the dialect header: parsed in full.
#define HPP_PCH_TEST_DEFINED 1
#include <hpp/hpp.h>

int main() {
  hpp::Pointer<int> Out = hpp::allocate<int>(1);
  hpp::parallelFor(hpp::Range<1>(1), [=](hpp::Index<1> I) __device(hpp) {
    Out[0] = HPP_PCH_TEST_DEFINED;
  });
  return 0;
}
