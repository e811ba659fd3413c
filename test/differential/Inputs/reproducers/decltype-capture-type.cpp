// Reproducer (scripts/scope_corpus.py, kind dependent-alias; class
// gen-build-failed): a capture declared `decltype(v) w` where v is a local
// the body does not capture. The kernel's parameter keeps the spelling,
// `const decltype(v) w`, and no v is declared there: "'v' was not
// declared in this scope". The same in a function template.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
  long v = 5;
  decltype(v) w = v + 2;
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i] = int(w) * int(i); });
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += p[k] != 7 * k;
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
