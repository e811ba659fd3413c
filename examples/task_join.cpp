//===- examples/task_join.cpp - Two independent tasks joined with && -----===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Two independent tasks run at the same time and are waited on together:
/// `f1 && f2` is a `Future<std::pair<A, B>>` that completes when both
/// have, and its get() returns both results. One task returns an int per
/// work-item, so its future holds a `std::vector<int>` (element
/// `x + gx * y` for the work-item at (x, y) of a 2-D range of gx columns:
/// the linear global id, X fastest); the other returns nothing, and its
/// side of the pair is an `hpp::Nothing`; it writes its results to memory
/// from allocate. Each case is checked against plain C++:
///  - values-and-void: a 2-D task of values && a 1-D void task;
///  - void-and-values: the other way round, the value task over a
///    Range<1,1> with a partial last work-group;
///  - after-join: a third task enqueued after the join of two void tasks
///    (spelled `Future<std::pair<Nothing, Nothing>>`: a void side may be
///    written either way) reads what both wrote; the join of that join
///    with the third task's future gives its results.
///
/// Usage: task_join [n]   (n, default 1000, is the size of the 1-D tasks;
/// the 2-D task is n/10 + 1 columns by 7 rows)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <vector>

using namespace hpp;

static int Failures = 0;

/// The value the value task computes for the work-item at (x, y).
__device(hpp) inline int valueAt(std::size_t x, std::size_t y) {
  return static_cast<int>((x * 31 + y * 17) % 201) - 100;
}

/// Checks that \p Got holds valueAt(x, y) at x + Cols * y and that
/// Out[i] == 3 * In[i] - 1 for i < n; prints one line for \p Name.
static void check(const char *Name, const std::vector<int> &Got,
                  std::size_t Cols, std::size_t Rows, Pointer<int> In,
                  Pointer<int> Out, std::size_t n) {
  bool Ok = Got.size() == Cols * Rows;
  if (!Ok)
    std::printf("%s: %zu results, expected %zu\n", Name, Got.size(),
                Cols * Rows);
  long long ValueSum = 0, VoidSum = 0;
  for (std::size_t y = 0; Ok && y != Rows; ++y)
    for (std::size_t x = 0; x != Cols; ++x) {
      int Want = valueAt(x, y);
      ValueSum += Got[x + Cols * y];
      if (Got[x + Cols * y] != Want && Ok) {
        std::printf("%s: result %zu (x=%zu y=%zu) is %d, expected %d\n", Name,
                    x + Cols * y, x, y, Got[x + Cols * y], Want);
        Ok = false;
      }
    }
  for (std::size_t i = 0; i != n; ++i) {
    VoidSum += Out[i];
    if (Out[i] != 3 * In[i] - 1 && Ok) {
      std::printf("%s: Out[%zu] is %d, expected %d\n", Name, i, Out[i],
                  3 * In[i] - 1);
      Ok = false;
    }
  }
  if (!Ok)
    ++Failures;
  else
    std::printf("%s values=%zu sum=%lld void-task n=%zu sum=%lld verified\n",
                Name, Got.size(), ValueSum, n, VoidSum);
}

int main(int argc, char **argv) {
  long Arg = argc > 1 ? std::atol(argv[1]) : 1000;
  if (Arg <= 0 || argc > 2) {
    std::fprintf(stderr, "usage: task_join [n]\n");
    return 2;
  }
  std::size_t n = static_cast<std::size_t>(Arg);
  std::size_t Cols = n / 10 + 1, Rows = 7;

  Pointer<int> In = allocate<int>(n), Out = allocate<int>(n);
  for (std::size_t i = 0; i != n; ++i)
    In[i] = static_cast<int>(i * 13 % 97) - 40;

  // A task that returns a value per work-item, and one that returns none.
  Task<int, Index<2>> values([=](Index<2> i) __device(hpp) -> int {
    return valueAt(i.getX(), i.getY());
  });
  Task<void, Index<1>> triple([=](Index<1> i) __device(hpp) {
    Out[i] = 3 * In[i] - 1;
  });

  {
    Future<std::vector<int>> f1 = values.enqueue(Range<2>(Cols, Rows));
    Future<void> f2 = triple.enqueue(Range<1>(n));
    // The join's type pairs the futures' types; get() gives a Nothing for
    // the void side.
    Future<std::pair<std::vector<int>, void>> both = f1 && f2;
    std::pair<std::vector<int>, Nothing> result = both.get();
    check("values-and-void", result.first, Cols, Rows, In, Out, n);
  }

  // The other way round: the void side first, and a 1-D value task over
  // work-groups of 64 (a partial last group when n is not a multiple).
  Task<int, Index<1, 1>> line([=](Index<1, 1> i) __device(hpp) -> int {
    return valueAt(i.getX(), 0);
  });
  for (std::size_t i = 0; i != n; ++i) {
    In[i] = static_cast<int>(i * 7 % 53) - 20;
    Out[i] = 0;
  }
  {
    Future<void> f1 = triple.enqueue(Range<1>(n));
    Future<std::vector<int>> f2 = line.enqueue(Range<1, 1>(n, 64));
    auto both = f1 && f2;
    static_assert(std::is_same<std::decay_t<decltype(both.get())>,
                               std::pair<Nothing, std::vector<int>>>::value,
                  "f1 && f2 of Future<void> and Future<std::vector<int>>");
    std::pair<Nothing, std::vector<int>> result = both.get();
    check("void-and-values", result.second, n, 1, In, Out, n);
  }

  // after-join: a third task enqueued after `f1 && f2` reads what both
  // void tasks wrote; the join of the join and its future is waited on.
  Pointer<int> Out2 = allocate<int>(n);
  Task<void, Index<1>> square([=](Index<1> i) __device(hpp) {
    Out2[i] = In[i] * In[i];
  });
  Task<int, Index<1>> combine([=](Index<1> i) __device(hpp) -> int {
    return Out[i] + Out2[n - 1 - i];
  });
  for (std::size_t i = 0; i != n; ++i) {
    In[i] = static_cast<int>(i * 11 % 89) - 30;
    Out[i] = Out2[i] = 0;
  }
  {
    Future<void> f1 = triple.enqueue(Range<1>(n));
    Future<void> f2 = square.enqueue(Range<1>(n));
    // A void side may be spelled Nothing, the type get() gives it; a join
    // may itself be joined.
    Future<std::pair<Nothing, Nothing>> both = f1 && f2;
    Future<std::vector<int>> f3 = combine.enqueue(Range<1>(n), both);
    std::pair<std::pair<Nothing, Nothing>, std::vector<int>> All =
        (both && f3).get();
    std::vector<int> Got = All.second;
    bool Ok = Got.size() == n;
    long long Sum = 0;
    for (std::size_t i = 0; Ok && i != n; ++i) {
      int Want = (3 * In[i] - 1) + In[n - 1 - i] * In[n - 1 - i];
      Sum += Got[i];
      if (Got[i] != Want) {
        std::printf("after-join: result %zu is %d, expected %d\n", i, Got[i],
                    Want);
        Ok = false;
      }
    }
    if (Ok)
      std::printf("after-join values=%zu sum=%lld verified\n", Got.size(),
                  Sum);
    else
      ++Failures;
  }

  deallocate(In);
  deallocate(Out);
  deallocate(Out2);
  return Failures ? 1 : 0;
}
