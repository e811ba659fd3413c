// Runs first.cpp's and second.cpp's kernels and prints what they computed
// (test/rewrite/project-headers-join.test).
#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

void runFirst(Pointer<int> p, int n);
void runSecond(Pointer<int> p, int n);

int main() {
  const int n = 256;
  Pointer<int> p = allocate<int>(n);
  for (int Round = 0; Round < 2; ++Round) {
    if (Round == 0)
      runFirst(p, n);
    else
      runSecond(p, n);
    long long Sum = 0, Weighted = 0;
    for (int e = 0; e < n; ++e) {
      Sum += p[e];
      Weighted += (long long)(e % 7) * p[e];
    }
    std::printf("%s: sum %lld weighted %lld\n", Round ? "second" : "first", Sum,
                Weighted);
  }
  deallocate(p);
  return 0;
}
