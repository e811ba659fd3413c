// Reproducer (scripts/scope_corpus.py seed 2700, kind auto-params; class
// tool-refused): a channel consumer with an `auto` index reads its
// std::vector batch at an index of dependent type (`data[j.getX()]`). The
// tool took the index for the subscripted object (clang's getBase() picks
// the side of integer type, and a dependent type is none) and refused the
// read as an unsupported use of the batch.
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
#include <vector>
using namespace hpp;
int main() {
  const int n = 32;
  Pointer<int> out = allocate<int>(n);
  Channel<int> ch(16);
  ch.executeWith(
      [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 16; },
      Range<1>(16), [=](auto j, std::vector<int> data) __device(hpp) {
        const int v = data[j.getX()];
        out[v] = v * 2 + 1;
      });
  parallelFor(Range<1>(n), [=, &ch](Index<1> i) __device(hpp) { ch.write(int(i.getX())); });
  int bad = 0;
  for (int e = 0; e < n; ++e) bad += out[e] != e * 2 + 1;
  std::printf("%s\n", bad ? "wrong" : "ok");
}
