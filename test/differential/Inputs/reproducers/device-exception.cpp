// Reproducer (scripts/scope_corpus.py --refusals; a refusal that exits 0):
// try/catch in a parallelFor body and a throw in a __device(hpp) helper it
// calls. The reference runs it; hpp-rewrite accepts it without a word, and
// nvcc ("device code does not support exception handling") and hipcc
// ("cannot use 'try' in __global__ function") reject the output. It must
// be refused, with an error at the try and at the throw. The same in a
// Task body and a channel consumer.
// Run: scripts/difftest.py --gpu test/differential/Inputs/reproducers/reproducers-gpu.json
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
__device(hpp) inline int checked(int x) {
  if (x < 0)
    throw x;
  return x;
}
int main() {
  const int n = 100;
  Pointer<int> p = allocate<int>(n);
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    try {
      p[i] = checked(int(i));
    } catch (...) {
      p[i] = -1;
    }
  });
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += p[k] != k;
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
