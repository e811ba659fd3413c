// Reproducer (scripts/scope_corpus.py, kind dependent-alias; class
// gen-build-failed): in a function template, a capture whose type is a
// function-local alias of a dependent member type (`using V = typename
// Traits<T>::value_type;`). The kernel's parameter is spelled with clang's
// canonical name of the template parameter, `typename
// Traits<type-parameter-0-0>::value_type`, which no compiler accepts.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
template <typename T> struct Traits {
  using value_type = T;
};
template <typename T> int run(Pointer<int> p, int n, T seed) {
  using V = typename Traits<T>::value_type;
  V v = seed;
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i] = int(v * V(int(i) % 7)); });
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += p[k] != int(v * V(k % 7));
  return bad;
}
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
  int bad = run(p, n, 3) + run(p, n, 2.5f);
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
