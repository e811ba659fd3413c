// Reproducer (scripts/scope_corpus.py, kind extern-c++; class
// gen-build-failed): a parallelFor in a function of an `extern "C++"`
// block, capturing a struct declared in the same block. The kernel is
// placed before the whole block, where the struct is not declared yet:
// the output does not compile ("'Pt' does not name a type"). The same
// with `extern "C"` (kind extern-c).
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
extern "C++" {
struct Pt {
  int x, y;
};
void run(Pointer<int> p, int n) {
  Pt pt{3, 4};
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i] = pt.x * int(i) + pt.y; });
}
}
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
  run(p, n);
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += p[k] != 3 * k + 4;
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
