// A dialect program whose first line that is not blank, a comment or a
// #line directive includes the dialect header: test/tool/dialect-pch.test
// rewrites it with the header precompiled.

/* A block comment, */ /* and another. */
#line 6 "leading.cpp"
#include <hpp/hpp.h>
#include <cstdio>

using namespace hpp;

#ifdef HPP_PCH_TEST_CHANGED
constexpr int Changed = 1;
#else
constexpr int Changed = 0;
#endif

int main() {
  Pointer<int> Out = allocate<int>(64);
  parallelFor(Range<1>(64), [=](Index<1> I) __device(hpp) {
    int V = int(I.getX()) + Changed;
    V += __shfl_down_sync(0xffffffff, V, 1);
    Out[I.getX()] = V + MVECTOR_SIZE;
  });
  std::printf("%d\n", Out[0]);
  return 0;
}
