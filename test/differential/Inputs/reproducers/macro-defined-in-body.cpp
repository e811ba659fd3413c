// Reproducer (scripts/scope_corpus.py, kind local-macros; class
// gen-build-failed): a body #defines a macro that the host code after the
// body uses. The body's text moves into the outlined kernel, before the
// enclosing function, and its #define with it: the host's use after the
// launch no longer sees the macro ("'SCALE' was not declared in this
// scope"). The body's directives must stay in effect where it was written
// too (or the tool refuse them).
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
#define SCALE 3
    p[i] = SCALE * int(i);
  });
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += p[k] != SCALE * k;
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
