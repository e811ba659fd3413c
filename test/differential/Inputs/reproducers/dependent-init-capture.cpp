// Reproducer (scripts/scope_corpus.py, kind capture-forms; class
// gen-build-failed): in a function template, an init-capture whose type
// depends on the template parameter (`[=, q = p]` with `Pointer<T> p`).
// The kernel's parameter is spelled `const auto q` (an abbreviated
// template, not C++17), and the launch `hpp_run_pfor0<T>` cannot deduce
// it: "no matching function for call to launchKernel(<unresolved
// overloaded function type>, ...)".
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
template <typename T> void run(Pointer<T> p, int n) {
  const int k = 3;
  parallelFor(Range<1>(n), [=, q = p](Index<1> i) __device(hpp) { q[i] = T(k * int(i)); });
}
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
  run(p, n);
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += p[k] != 3 * k;
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
