// Reproducer (scripts/scope_corpus.py, kind task-results; class
// gpu-build-failed): a Task<bool>. hpp-rewrite accepts it and the output
// runs right on the CPU backend, but the GPU runtime copies a task's
// results with std::vector<R>::data() (runtime/hpp/backend/gpu_task.h,
// fetchDeviceResults), which std::vector<bool> does not have: nvcc and
// hipcc reject the output.
// Run: scripts/difftest.py --gpu test/differential/Inputs/reproducers/reproducers-gpu.json
#include <hpp/hpp.h>
#include <cstdio>
#include <vector>
using namespace hpp;
int main() {
  const int n = 100;
  Task<bool, Index<1>> t([=](Index<1> i) __device(hpp) -> bool { return int(i) % 3 == 0; });
  std::vector<bool> r = t.enqueue(Range<1>(n)).get();
  int bad = int(r.size()) != n;
  for (int k = 0; k < n && !bad; ++k)
    bad += r[k] != (k % 3 == 0);
  std::printf("%s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
