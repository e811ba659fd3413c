// Reproducer (scripts/scope_corpus.py, kind generic-lambda; class
// gen-build-failed): a parallelFor in a generic lambda defined at namespace
// scope, called with two types. The kernel's template parameters take the
// lambda's `auto` parameters as non-type parameters besides the capture
// types (`template <typename HppCapture0, typename HppCapture1, auto p,
// auto v>`): "declaration of 'const HppCapture0 p' shadows template
// parameter". generic-lambda-launch.cpp is the same in a function.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
static auto run = [](auto p, auto v, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i] = int(v * int(i)); });
};
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
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
