// Reproducer (scripts/scope_corpus.py, kind local-macros; class
// mismatch-32, silent): a body #undefs and redefines a macro that the host
// code after the body reads. The body's text, directives included, moves
// into the outlined kernel before the enclosing function; at the launch's
// place the macro keeps its old value, so the host computes with 2 where
// the program (and the kernel) mean 5. The output compiles, no
// diagnostic: wrong at every width.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
#define SCALE 2
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
#undef SCALE
#define SCALE 5
    p[i] = SCALE * int(i);
  });
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += p[k] != SCALE * k;
  std::printf("%s (scale %d)\n", bad ? "wrong" : "ok", SCALE);
  return bad != 0;
}
