// Reproducer (scripts/scope_corpus.py, kind task-forms; class
// gen-build-failed): a Task body passed to std::vector<Task>::emplace_back
// in a function template. Outside a template the tool refuses it (the body
// is not written in the Task's construction); in a template it accepts it
// without a word, and the output does not compile (the runtime's Task is
// made from a kernel, not from the lambda).
// Run: scripts/difftest.py test/differential/Inputs/reproducers
#include <hpp/hpp.h>
#include <cstdio>
#include <vector>
using namespace hpp;
template <typename T> int run(int n) {
  std::vector<Task<T, Index<1>>> ts;
  ts.emplace_back([=](Index<1> i) __device(hpp) -> T { return T(int(i) * 4 + 2); });
  std::vector<T> r = ts[0].enqueue(Range<1>(n)).get();
  int bad = int(r.size()) != n;
  for (int k = 0; k < n && !bad; ++k)
    bad += r[k] != T(4 * k + 2);
  return bad;
}
int main() {
  int bad = run<int>(100);
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
