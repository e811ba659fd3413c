// Two warning checks fire here, once each: hpp-divergent-warp-op and
// hpp-barrier-divergence (test/tool/rules.test, disable.test,
// warnings-as-errors.test).
#include <hpp/hpp.h>
using namespace hpp;

void run(Pointer<int> p, int n) {
  Barrier b(256);
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(256)),
              [=, &b](Index<1, 1> i) __device(hpp) {
    int v = p[i.getX()];
    if (i.getX() < std::size_t(n))
      v += __shfl_down_sync(0xffffffff, v, 1);
    if (i.getLocalX() < 32)
      b.wait();
    p[i.getX()] = v;
  });
}
