//===- join_of_joins.cpp - Joins of joins of futures ----------------------===//
//
// Part of hpp-rewrite. Input of test/runtime/join-of-joins.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `f1 && f2` may itself be joined: `(fx && fy) && fs` of void futures, a
/// join of values and void joined with a join, and a join kept in a
/// variable (spelled with Nothing for a void side, or auto) then joined
/// and passed to a later enqueue. The types of get() are checked at compile
/// time (Nothing for a void side, a pair of pairs for a join of joins); the
/// values, and that every task has run, at run time.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <type_traits>
#include <utility>
#include <vector>

using namespace hpp;

int main() {
  Pointer<int> p = allocate<int>(4);
  Task<void, Index<1>> a([=](Index<1> i) __device(hpp) { p[0] = 1; });
  Task<void, Index<1>> b([=](Index<1> i) __device(hpp) { p[1] = 2; });
  Task<void, Index<1>> s([=](Index<1> i) __device(hpp) { p[2] = 3; });
  Task<int, Index<1>> v([=](Index<1> i) __device(hpp) -> int {
    return 10 * static_cast<int>(i.getX()) + 1;
  });

  // (fx && fy) && fs, all void.
  Future<void> fx = a.enqueue(Range<1>(1)), fy = b.enqueue(Range<1>(1)),
               fs = s.enqueue(Range<1>(1));
  auto all = (fx && fy) && fs;
  static_assert(
      std::is_same<decltype(all.get()),
                   std::pair<std::pair<Nothing, Nothing>, Nothing>>::value,
      "get() of (void && void) && void");
  all.wait();
  std::printf("void-joins: %d %d %d\n", p[0], p[1], p[2]);

  // fs && (fx && fy): the join on the right.
  p[0] = p[1] = p[2] = 0;
  fx = a.enqueue(Range<1>(1));
  fy = b.enqueue(Range<1>(1));
  fs = s.enqueue(Range<1>(1));
  auto right = fs && (fx && fy);
  static_assert(
      std::is_same<decltype(right.get()),
                   std::pair<Nothing, std::pair<Nothing, Nothing>>>::value,
      "get() of void && (void && void)");
  right.get();
  std::printf("right-join: %d %d %d\n", p[0], p[1], p[2]);

  // Values and void: (values && void) && (void && values).
  p[0] = p[1] = 0;
  Future<std::vector<int>> f1 = v.enqueue(Range<1>(3));
  Future<void> f2 = a.enqueue(Range<1>(1));
  Future<void> f3 = b.enqueue(Range<1>(1));
  Future<std::vector<int>> f4 = v.enqueue(Range<1>(2));
  auto both = (f1 && f2) && (f3 && f4);
  using Both = std::pair<std::pair<std::vector<int>, Nothing>,
                         std::pair<Nothing, std::vector<int>>>;
  static_assert(std::is_same<decltype(both.get()), Both>::value,
                "get() of a join of two mixed joins");
  Both got = both.get();
  std::printf("mixed: %zu %d %d %d | %d %d | %zu %d %d\n",
              got.first.first.size(), got.first.first[0], got.first.first[1],
              got.first.first[2], p[0], p[1], got.second.second.size(),
              got.second.second[0], got.second.second[1]);

  // A join kept in a variable (void spelled Nothing), joined again, and a
  // task enqueued after that join of joins.
  p[0] = p[1] = p[2] = p[3] = 0;
  Future<std::pair<Nothing, Nothing>> kept =
      a.enqueue(Range<1>(1)) && b.enqueue(Range<1>(1));
  Future<std::pair<std::pair<Nothing, Nothing>, Nothing>> three =
      kept && s.enqueue(Range<1>(1));
  Task<void, Index<1>> sum([=](Index<1> i) __device(hpp) {
    p[3] = p[0] + p[1] + p[2];
  });
  Future<void> after = sum.enqueue(Range<1>(1), three);
  // The same join under its spelling with void: waited for, not joined
  // again (an operator's lookup over that type would complete
  // std::pair<..., void>: docs/dialect.md, Future).
  Future<std::pair<std::pair<Nothing, Nothing>, void>> spelled = three;
  spelled.wait();
  after.wait();
  std::printf("after-join: %d %d %d %d\n", p[0], p[1], p[2], p[3]);

  // wait() and get() of a join of joins rethrow no error when none failed;
  // a default-constructed join refers to no task.
  Future<std::pair<std::pair<Nothing, Nothing>, Nothing>> none;
  std::printf("valid: %d %d\n", int(three.valid()), int(none.valid()));
  try {
    none.wait();
  } catch (const RuntimeError &E) {
    std::printf("empty: %s\n", E.backendMessage().c_str());
  }
  deallocate(p);
  return 0;
}
