// Reproducer (scripts/scope_corpus.py, kind auto-params; class
// gen-build-failed): the BoundDistArray parameter of a DistArray launch's
// body written `auto`. The kernel's parameter is spelled `auto` too (an
// abbreviated template, not C++17), and the launch names the kernel
// without template arguments: "no matching function for call to
// launchKernel(<unresolved overloaded function type>, ...)". An `auto`
// Index alone is rewritten right.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
int main() {
  const int n = 128, L = 64;
  Pointer<int> p = allocate<int>(n);
  DistArray<int> d;
  Region<int> r = d.allocRegion(L);
  parallelFor(Range<1, 1>(n, L), d, [=](Index<1, 1> i, auto a) __device(hpp) {
    Segment<int> s = a(r);
    const int l = int(i.getLocalX());
    s[l] = int(i.getX()) * 2;
    s.barrier();
    p[i.getX()] = s[(l + 1) % L];
  });
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += p[k] != 2 * (k / L * L + (k % L + 1) % L);
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
