// Reproducer (scripts/scope_corpus.py, kind local-constants; class
// mismatch-32, silent): in a function template, the body reads, without
// capturing it, a `static const` local that shadows a namespace-scope
// constant of the same name. The outlined kernel (a template, placed
// before the function) neither takes it as a parameter, as it does a plain
// `const` local of a template, nor declares it again, as it does in a
// function that is not a template: there `K` names the namespace's
// constant, and the kernel computes with 1000 where the program means 10.
// The output compiles, no diagnostic: wrong at every width. (Without the
// namespace's K, the output does not compile; a `static constexpr` local
// in a generic lambda is the same.)
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
constexpr int K = 1000;
template <typename T> void run(Pointer<T> p, int n) {
  static const int K = 10;
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i] = K * int(i); });
}
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
  run(p, n);
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += p[k] != 10 * k;
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
