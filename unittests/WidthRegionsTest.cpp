//===- WidthRegionsTest.cpp - Host code that needs the width constant ---===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of findWidthRegions (lib/Analysis/WidthRegions.h): which statements
/// of a host block run once per width, how far a region reaches (the uses
/// of what it declares, the end of the function where it returns), regions
/// inside regions, and what keeps a region from running inside a lambda.
///
//===----------------------------------------------------------------------===//

#include "Analysis/WidthRegions.h"
#include "AnalysisTestSupport.h"

#include "gtest/gtest.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

class WidthRegionsTest : public ::testing::Test {
protected:
  /// The regions of function \p Fn of the dialect snippet \p Code.
  std::vector<WidthRegion> regions(llvm::StringRef Code, llvm::StringRef Fn) {
    TU = ParsedSource::parseDialect(Code);
    EXPECT_TRUE(TU->ok()) << TU->diagnostics();
    const FunctionDecl *F = TU->function(Fn);
    if (!F) {
      ADD_FAILURE() << "no function '" << Fn.str() << "'";
      return {};
    }
    std::vector<WidthUse> Uses = findHostWidthUses(F->getBody(), TU->context());
    return findWidthRegions(F, Uses, TU->context());
  }
  /// The region's text, from its first statement to its last.
  std::string text(const WidthRegion &R) {
    return Lexer::getSourceText(R.Range, TU->sourceManager(), TU->langOpts())
        .str();
  }
  std::unique_ptr<ParsedSource> TU;
};

// From the first statement that needs the constant to the last that uses
// what the region declares; the statements before and after stay out.
TEST_F(WidthRegionsTest, ReachesTheLastUseOfWhatItDeclares) {
  auto R = regions(R"cpp(
template <int W> struct Tile { int data[W]; };
void f(int &out) {
  int before = 1;
  constexpr int w = MVECTOR_SIZE;
  int n = 2;
  Tile<w> t;
  t.data[0] = n;
  out = t.data[0] + before;
  out += 1;
}
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_FALSE(R[0].ReturnsValue);
  EXPECT_EQ(text(R[0]), "constexpr int w = MVECTOR_SIZE;\n  int n = 2;\n  "
                        "Tile<w> t;\n  t.data[0] = n;\n  out = t.data[0] + "
                        "before;");
  EXPECT_EQ(TU->lineColumn(R[0].FirstUse), "7:21");
}

// A region that returns reaches the end of its function's body; the
// dispatch returns what it returns, the type as written, or deduced where
// the function's is plain `auto`.
TEST_F(WidthRegionsTest, ReturnReachesTheEnd) {
  auto R = regions(R"cpp(
long f(int k) {
  int a[MVECTOR_SIZE];
  a[0] = k;
  if (k) return a[0];
  k = 2;
  return k;
}
auto g(int k) {
  int a[MVECTOR_SIZE / 2];
  a[0] = k;
  return a[0];
}
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].ReturnsValue);
  EXPECT_EQ(R[0].ReturnType, "long");
  EXPECT_EQ(text(R[0]).substr(text(R[0]).size() - 9), "return k;");
  const FunctionDecl *G = TU->function("g");
  ASSERT_TRUE(G);
  auto RG = findWidthRegions(G, findHostWidthUses(G->getBody(), TU->context()),
                             TU->context());
  ASSERT_EQ(RG.size(), 1u);
  EXPECT_TRUE(RG[0].Problem.empty()) << RG[0].Problem;
  EXPECT_TRUE(RG[0].ReturnsValue);
  EXPECT_EQ(RG[0].ReturnType, "");
}

// A region in a block inside another region is part of it; a use through a
// `const` variable starts at the variable's declaration.
TEST_F(WidthRegionsTest, InnerRegionsAndConstantsThatHoldTheWidth) {
  auto R = regions(R"cpp(
template <int W> struct Tile { int data[W]; };
void f(int k, int &out) {
  const int half = MVECTOR_SIZE / 2;
  k += 1;
  if (k) {
    Tile<half> t;
    t.data[0] = k;
    out = t.data[0];
  }
  int b[MVECTOR_SIZE];
  b[0] = out;
  out = b[0];
}
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_EQ(TU->lineColumn(R[0].Range.getBegin()), "6:3");
  EXPECT_EQ(TU->lineColumn(R[0].Range.getEnd()), "15:14");
}

// What keeps statements from running inside a lambda, each at its place.
TEST_F(WidthRegionsTest, ProblemsAreLocated) {
  auto R = regions(R"cpp(
void f(int k) {
  for (int i = 0; i < k; ++i) {
    int a[MVECTOR_SIZE];
    a[0] = i;
    for (int j = 0; j < 2; ++j)
      if (j == a[0]) break;
    if (a[0] == 3) continue;
    a[0] += 1;
  }
}
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Problem, "a 'continue' out of them");
  EXPECT_EQ(TU->lineColumn(R[0].ProblemLoc), "10:20");
  R = regions(R"cpp(
void f(Pointer<int> p) {
  constexpr int w = MVECTOR_SIZE;
  parallelFor(Range<1>(4), [=, v = w](Index<1> i) __device(hpp) {
    p[i.getX()] = v;
  });
}
)cpp",
              "f");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Problem, "a kernel launch (a device lambda)");
  R = regions(R"cpp(
int f() {
  static int cache[MVECTOR_SIZE];
  return cache[0];
}
)cpp",
              "f");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Problem,
            "a static local variable (there would be one per width)");
}

// Run-time uses and call statements' template arguments need no region.
TEST_F(WidthRegionsTest, RunTimeUsesNeedNone) {
  auto R = regions(R"cpp(
template <int W> void g(int) {}
int f(int k) {
  int w = MVECTOR_SIZE;
  g<MVECTOR_SIZE>(k);
  return w;
}
)cpp",
                   "f");
  EXPECT_TRUE(R.empty());
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
