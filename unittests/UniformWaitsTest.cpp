//===- UniformWaitsTest.cpp - Does every work-item reach the same waits? --===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of waitsAreUniform (lib/Analysis/UniformWaits.h): a barrier every
/// work-item waits on the same number of times may use the hardware
/// barrier; a wait under a condition that may differ between work-items,
/// or a jump that lets some skip one, may not.
///
//===----------------------------------------------------------------------===//

#include "Analysis/UniformWaits.h"
#include "AnalysisTestSupport.h"

#include "gtest/gtest.h"

#include <optional>

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

/// Whether the waits on `B` of a parallelFor body \p Body are uniform, the
/// body run with `N` work-items in groups of `G` (captures), a Pointer `A`
/// (captured) and the barrier `B` (by reference, as a Barrier is
/// captured). std::nullopt (and a failure) when the snippet does not parse.
std::optional<bool> uniform(llvm::StringRef Body) {
  const std::string Code = (R"cpp(
void run(std::size_t N, std::size_t G, Pointer<int> A) {
  Barrier B(G);
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=, &B](Index<1, 1> i) __device(hpp) {
)cpp" + Body + R"cpp(
              });
}
)cpp")
                               .str();
  std::unique_ptr<ParsedSource> TU = ParsedSource::parseDialect(Code);
  if (!TU->ok()) {
    ADD_FAILURE() << "the snippet does not parse:\n" << TU->diagnostics();
    return std::nullopt;
  }
  const VarDecl *Barrier = TU->variable("B");
  std::vector<const LambdaExpr *> Bodies = TU->outermostDeviceLambdas();
  if (!Barrier || Bodies.size() != 1) {
    ADD_FAILURE() << "no barrier B or no single parallelFor body";
    return std::nullopt;
  }
  return waitsAreUniform(Barrier, Bodies[0]);
}

TEST(UniformWaitsTest, StraightLineWaitsAreUniform) {
  EXPECT_EQ(uniform(R"cpp(
    A[i.getX()] = 1;
    B.wait();
    A[i.getX()] += 1;
    B.wait();
)cpp"),
            true);
}

// The work-item's index differs between work-items: some skip the wait.
TEST(UniformWaitsTest, WaitUnderIndexConditionIsNotUniform) {
  EXPECT_EQ(uniform(R"cpp(
    if (i.getLocalX() == 0)
      B.wait();
)cpp"),
            false);
}

// Literals and captures (every work-item has the same copy) are uniform,
// in loops, branches and switches.
TEST(UniformWaitsTest, ConditionsOnConstantsAndCapturesAreUniform) {
  EXPECT_EQ(uniform(R"cpp(
    for (int s = 0; s < 3; ++s)
      B.wait();
    if (G > 1)
      B.wait();
    switch (N) {
    case 1:
      break;
    default:
      B.wait();
    }
)cpp"),
            true);
}

// A load may differ between work-items (and between reads).
TEST(UniformWaitsTest, LoopBoundFromMemoryIsNotUniform) {
  EXPECT_EQ(uniform(R"cpp(
    for (int s = 0; s < A[0]; ++s)
      B.wait();
)cpp"),
            false);
}

// The body's own scalars are uniform when only uniform values, under
// uniform conditions, initialise and change them.
TEST(UniformWaitsTest, LocalComputedFromCapturesIsUniform) {
  EXPECT_EQ(uniform(R"cpp(
    int n = int(G) * 2;
    n += 1;
    for (int s = 0; s < n; ++s)
      B.wait();
)cpp"),
            true);
}

TEST(UniformWaitsTest, LocalChangedUnderDivergentBranchIsNotUniform) {
  EXPECT_EQ(uniform(R"cpp(
    int n = 2;
    if (i.getLocalX() == 0)
      n = 3;
    for (int s = 0; s < n; ++s)
      B.wait();
)cpp"),
            false);
}

// A local whose address is taken may change behind the analysis' back.
TEST(UniformWaitsTest, ExposedLocalIsNotUniform) {
  EXPECT_EQ(uniform(R"cpp(
    int n = 2;
    int *p = &n;
    *p = 3;
    for (int s = 0; s < n; ++s)
      B.wait();
)cpp"),
            false);
}

// A work-item that leaves early no longer waits; the body's last statement
// may be a return (every work-item is done).
TEST(UniformWaitsTest, DivergentEarlyReturnIsNotUniform) {
  EXPECT_EQ(uniform(R"cpp(
    if (i.getLocalX() > 5)
      return;
    B.wait();
)cpp"),
            false);
  EXPECT_EQ(uniform(R"cpp(
    B.wait();
    return;
)cpp"),
            true);
}

// A divergent break matters only out of a loop that waits.
TEST(UniformWaitsTest, DivergentBreakMattersOnlyInWaitingLoops) {
  EXPECT_EQ(uniform(R"cpp(
    for (int s = 0; s < 10; ++s) {
      if (i.getLocalX() == 3)
        break;
      B.wait();
    }
)cpp"),
            false);
  EXPECT_EQ(uniform(R"cpp(
    int x = 0;
    for (int s = 0; s < 10; ++s) {
      if (i.getLocalX() == 3)
        break;
      x += s;
    }
    B.wait();
    A[i.getX()] = x;
)cpp"),
            true);
}

// The test does not follow a nested lambda (nor a range-for).
TEST(UniformWaitsTest, WaitInNestedLambdaIsNotUniform) {
  EXPECT_EQ(uniform(R"cpp(
    auto w = [&]() { B.wait(); };
    w();
)cpp"),
            false);
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
