// Reproducer (scripts/scope_corpus.py, kind macro-helper; class
// gpu-build-failed): device code calls an `inline` function (no
// __device(hpp)) that a macro defines. The tool makes the inline
// functions device code calls __host__ __device__ by editing their
// declaration, which it cannot do inside a macro expansion; it says
// nothing, and the helper stays host code: nvcc ("calling a __host__
// function from a __global__ function is not allowed") and hipcc ("no
// matching function") reject the output. The CPU backend runs it right.
// Run: scripts/difftest.py --gpu test/differential/Inputs/reproducers/reproducers-gpu.json
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
#define DEF(name, f) inline int name(int x) { return x * (f); }
DEF(triple, 3)
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { p[i] = triple(int(i)); });
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += p[k] != 3 * k;
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
