// Reproducer (scripts/scope_corpus.py, kind generic-lambda; class
// gen-build-failed): a parallelFor inside a generic lambda called with two
// types. The kernel is a template over the lambda's `auto` parameters,
// but the launch names it without template arguments: "no matching
// function for call to launchKernel(<unresolved overloaded function
// type>, ...)". A Task in a generic lambda fails the same way.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
  auto run = [](Pointer<int> out, auto v, int m) {
    parallelFor(Range<1>(m), [=](Index<1> i) __device(hpp) { out[i] = int(v * int(i)); });
  };
  int bad = 0;
  run(p, 3, n);
  for (int k = 0; k < n; ++k)
    bad += p[k] != 3 * k;
  run(p, 0.5, n);
  for (int k = 0; k < n; ++k)
    bad += p[k] != int(0.5 * k);
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
