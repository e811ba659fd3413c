// Includes a project header through the include path: the output names the
// rewritten header by its path relative to this file.
#include <hpp/hpp.h>

#include <lib/lanes.h>

#include <cstdio>

using namespace hpp;

int main() {
  const int N = 256;
  Pointer<int> p = allocate<int>(N);
  parallelFor(Range<1, 1>(N, MVECTOR_SIZE), [=](Index<1, 1> i) __device(hpp) {
    p[i.getX()] = fullWidth(int(i.getLocalSizeX()));
  });
  int Full = 0;
  for (int e = 0; e < N; ++e)
    Full += p[e];
  std::printf("full %d of %d\n", Full, N);
}
