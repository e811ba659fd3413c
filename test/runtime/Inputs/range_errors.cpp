//===- range_errors.cpp - Ranges no launch can have -----------------------===//
//
// Part of hpp-rewrite. Input of test/runtime/range-errors.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every runtime refuses the same ranges with the same RuntimeError, at
/// the line of the parallelFor or of the enqueue
/// (hpp/core/range_check.h): a negative size converted to std::size_t, a
/// work-group of more than 1024 work-items or of size 0, more work-groups
/// than a launch can have. Each case is marked "// CASE: name" on the line
/// the error names; the program prints the messages with the directories
/// removed.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace hpp;

/// \p Msg with the directories of this file's path removed.
static std::string shown(std::string Msg) {
  const std::string Path = __FILE__;
  const std::string Name = Path.substr(Path.find_last_of('/') + 1);
  for (std::size_t At = 0; (At = Msg.find(Path, At)) != std::string::npos;
       At += Name.size())
    Msg.replace(At, Path.size(), Name);
  return Msg;
}

static void report(const char *Name, const RuntimeError &E) {
  std::printf("%s: %s\n", Name, shown(E.what()).c_str());
}

int main() {
  Pointer<int> n = allocate<int>(4096);
  n[0] = 0;
  Task<void, Index<1>> v1([=](Index<1> i) __device(hpp) { n[0] = 1; });
  Task<int, Index<1>> r1([=](Index<1> i) __device(hpp) -> int { return 1; });
  Task<void, Index<2>> v2([=](Index<2> i) __device(hpp) { n[0] = 1; });
  Task<void, Index<1, 1>> g1([=](Index<1, 1> i) __device(hpp) { n[0] = 1; });

  try {
    v1.enqueue(Range<1>(-1)).wait(); // CASE: void-task
  } catch (const RuntimeError &E) {
    report("void-task", E);
  }
  try {
    r1.enqueue(Range<1>(-1)).get(); // CASE: value-task
  } catch (const RuntimeError &E) {
    report("value-task", E);
  }
  try {
    v2.enqueue(Range<2>(-1, 4)).wait(); // CASE: task-2d
  } catch (const RuntimeError &E) {
    report("task-2d", E);
  }
  try {
    v2.enqueue(Range<2>(4, -3)).wait(); // CASE: task-2d-y
  } catch (const RuntimeError &E) {
    report("task-2d-y", E);
  }
  try {
    g1.enqueue(Range<1, 1>(64, -64)).wait(); // CASE: task-local
  } catch (const RuntimeError &E) {
    report("task-local", E);
  }
  try {
    v1.enqueue(Range<1>(std::size_t(1) << 41)).wait(); // CASE: task-groups
  } catch (const RuntimeError &E) {
    report("task-groups", E);
  }
  try {
    g1.enqueue(Range<1, 1>(4096, 2048)).wait(); // CASE: task-wg2048
  } catch (const RuntimeError &E) {
    report("task-wg2048", E);
  }
  try {
    g1.enqueue(Range<1, 1>(4096, 0)).wait(); // CASE: task-wg0
  } catch (const RuntimeError &E) {
    report("task-wg0", E);
  }
  try {
    parallelFor(Range<1>(-1), [=](Index<1> i) __device(hpp) { n[0] = 2; }); // CASE: pfor
  } catch (const RuntimeError &E) {
    report("pfor", E);
  }
  try {
    parallelFor(Range<2>(-1, 4), [=](Index<2> i) __device(hpp) { n[0] = 2; }); // CASE: pfor-2d
  } catch (const RuntimeError &E) {
    report("pfor-2d", E);
  }
  try {
    parallelFor(Range<1, 1>(4096, 2048), [=](Index<1, 1> i) __device(hpp) { n[i.getX()] = 1; }); // CASE: pfor-wg2048
  } catch (const RuntimeError &E) {
    report("pfor-wg2048", E);
  }
  try {
    parallelFor(Range<3, 3>(Range<3>(64, 64, 64), Range<3>(16, 16, 8)), // CASE: pfor-3d-group
                [=](Index<3, 3> i) __device(hpp) { n[0] = 2; });
  } catch (const RuntimeError &E) {
    report("pfor-3d-group", E);
  }
  try {
    parallelFor(Range<1, 1>(100, 0), [=](Index<1, 1> i) __device(hpp) { n[0] = 2; }); // CASE: pfor-wg0
  } catch (const RuntimeError &E) {
    report("pfor-wg0", E);
  }
  // Nothing ran; the runtime still works.
  parallelFor(Range<1>(10), [=](Index<1> i) __device(hpp) { atomicAdd(&n[1], 1); });
  std::vector<int> Ones = r1.enqueue(Range<1>(5)).get();
  std::printf("after: n[0]=%d n[1]=%d results=%zu\n", n[0], n[1], Ones.size());
  deallocate(n);
  return 0;
}
