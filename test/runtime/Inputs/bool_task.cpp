//===- bool_task.cpp - Tasks whose work-items return bool -----------------===//
//
// Part of hpp-rewrite. Input of test/runtime/bool-task.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `Task<bool, ...>`: its future holds a std::vector<bool> (no data() to
/// copy the device's values into: the GPU backends copy them through a
/// plain array). A 1-D task, a 2-D one with work-groups, one enqueued after
/// another's future, one joined with a void task, and an empty range.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <utility>
#include <vector>

using namespace hpp;

static void print(const char *Name, const std::vector<bool> &V) {
  int Set = 0;
  std::printf("%s: %zu values:", Name, V.size());
  for (std::size_t k = 0; k < V.size(); ++k) {
    Set += V[k];
    if (k < 20)
      std::printf(" %d", int(V[k]));
  }
  std::printf("%s; %d true\n", V.size() > 20 ? " ..." : "", Set);
}

int main() {
  Pointer<int> p = allocate<int>(1);
  Task<bool, Index<1>> even([=](Index<1> i) __device(hpp) -> bool {
    return i.getX() % 2 == 0;
  });
  print("even", even.enqueue(Range<1>(5)).get());

  Task<bool, Index<2, 2>> diagonal([=](Index<2, 2> i) __device(hpp) -> bool {
    return i.getX() == i.getY();
  });
  print("diagonal", diagonal.enqueue(Range<2, 2>(Range<2>(33, 33),
                                                 Range<2>(8, 8))).get());

  Task<void, Index<1>> set([=](Index<1> i) __device(hpp) { p[0] = 7; });
  Task<bool, Index<1>> seen([=](Index<1> i) __device(hpp) -> bool {
    return p[0] == 7 && i.getX() < 3;
  });
  Future<void> first = set.enqueue(Range<1>(1));
  Future<std::vector<bool>> after = seen.enqueue(Range<1>(1000), first);
  print("after", after.get());

  p[0] = 0;
  std::pair<std::vector<bool>, Nothing> both =
      (even.enqueue(Range<1>(300)) && set.enqueue(Range<1>(1))).get();
  print("joined", both.first);
  std::printf("joined: p=%d\n", p[0]);

  print("empty", even.enqueue(Range<1>(0)).get());
  deallocate(p);
  return 0;
}
