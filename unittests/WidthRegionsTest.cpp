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
/// inside regions and apart, the text it spans, the type it returns, and
/// what keeps a region from running inside a lambda.
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
// `const` variable starts at the variable's declaration; regions of one
// block that do not meet are apart.
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
  ASSERT_EQ(R.size(), 2u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_EQ(TU->lineColumn(R[0].Range.getBegin()), "6:3");
  EXPECT_EQ(TU->lineColumn(R[0].Range.getEnd()), "12:4");
  EXPECT_TRUE(R[1].Problem.empty()) << R[1].Problem;
  EXPECT_EQ(TU->lineColumn(R[1].Range.getBegin()), "13:3");
  EXPECT_EQ(TU->lineColumn(R[1].Range.getEnd()), "15:14");
}

// A kernel launched between two regions is in neither; a constant that
// holds the width through others, the outermost in another block, starts
// the region there.
TEST_F(WidthRegionsTest, ALaunchBetweenAndChainsOfConstants) {
  auto R = regions(R"cpp(
void f(Pointer<int> p, int &out) {
  int a[MVECTOR_SIZE];
  a[0] = 1;
  out = a[0];
  int add = out;
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = add;
  });
  int b[MVECTOR_SIZE / 2];
  b[0] = p[0];
  out = b[0];
}
template <int W> struct Tile { int data[W]; };
void g(int k, int &out) {
  const int w = MVECTOR_SIZE;
  out = k;
  if (k) {
    const int h = w / 2;
    Tile<h> t;
    out = t.data[0] = k;
  }
}
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 2u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_EQ(text(R[0]), "int a[MVECTOR_SIZE];\n  a[0] = 1;\n  out = a[0];");
  EXPECT_TRUE(R[1].Problem.empty()) << R[1].Problem;
  EXPECT_EQ(TU->lineColumn(R[1].Range.getBegin()), TU->positionOf("int b"));
  const FunctionDecl *G = TU->function("g");
  ASSERT_TRUE(G);
  R = findWidthRegions(G, findHostWidthUses(G->getBody(), TU->context()),
                       TU->context());
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_EQ(TU->lineColumn(R[0].Range.getBegin()),
            TU->positionOf("const int w"));
}

// A region in a switch's body that holds a case label is the whole switch;
// a function-try-block's block is its body; a local class's returns are
// its own.
TEST_F(WidthRegionsTest, SwitchesTryBlocksAndLocalClasses) {
  auto R = regions(R"cpp(
int f(int k) {
  int acc = k;
  switch (k) {
  case MVECTOR_SIZE:
    acc += 1;
    break;
  default:
    break;
  }
  return acc;
}
int g(int k) try {
  int a[MVECTOR_SIZE];
  struct L {
    int get() { return 1; }
  };
  a[0] = L().get() + k;
  return a[0];
} catch (...) {
  return -1;
}
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_EQ(TU->lineColumn(R[0].Range.getBegin()), TU->positionOf("switch"));
  EXPECT_EQ(TU->lineColumn(R[0].FirstUse), TU->positionOf("MVECTOR_SIZE"));
  EXPECT_FALSE(R[0].ReturnsValue);
  const FunctionDecl *G = TU->function("g");
  ASSERT_TRUE(G);
  R = findWidthRegions(G, findHostWidthUses(G->getBody(), TU->context()),
                       TU->context());
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_TRUE(R[0].ReturnsValue);
  EXPECT_EQ(R[0].ReturnType, "int");
}

// A goto to a label among the region's statements is theirs; one out of
// them, or into them, keeps them out of a lambda.
TEST_F(WidthRegionsTest, GotosWithinAreTheirs) {
  auto R = regions(R"cpp(
void f(int k, int &out) {
  {
    int a[MVECTOR_SIZE];
    a[0] = k;
  again:
    a[0] += 1;
    if (a[0] < 3)
      goto again;
    out = a[0];
  }
  {
    int b[MVECTOR_SIZE];
    b[0] = k;
    if (b[0] > 1)
      goto done;
    out = b[0];
  }
  {
    int c[MVECTOR_SIZE];
  back:
    c[0] = k;
    out = c[0];
    if (out < 0)
      goto back;
  }
done:
  out += 1;
}
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 3u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_EQ(R[1].Problem, "a goto out of them");
  EXPECT_EQ(TU->lineColumn(R[1].ProblemLoc), TU->positionOf("goto done"));
  EXPECT_EQ(R[2].Problem, "a label that a goto outside them jumps to");
  EXPECT_EQ(TU->lineColumn(R[2].ProblemLoc), TU->positionOf("back:"));
}

// What a region declares reaches its uses: structured bindings (one
// declared before it starts it), enumerators, a using-declaration's names;
// a using-directive reaches the end of the block.
TEST_F(WidthRegionsTest, WhatARegionDeclaresReachesItsUses) {
  auto R = regions(R"cpp(
#include <utility>
template <int W> struct Tile { int data[W]; };
void f(int k, int &out) {
  auto [x, y] = std::pair<int, int>(k, 1);
  Tile<MVECTOR_SIZE> t{};
  t.data[0] = x;
  enum { E = 2 };
  using std::max;
  out = 0;
  out = max(t.data[0], int(E));
  out += 1;
}
void g(int &out) {
  int a[MVECTOR_SIZE];
  using namespace std;
  a[0] = 1;
  out = 2;
  out += 3;
}
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_EQ(text(R[0]).substr(0, 9), "auto [x, ");
  EXPECT_EQ(text(R[0]).substr(text(R[0]).size() - 29),
            "out = max(t.data[0], int(E));");
  const FunctionDecl *G = TU->function("g");
  ASSERT_TRUE(G);
  R = findWidthRegions(G, findHostWidthUses(G->getBody(), TU->context()),
                       TU->context());
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(text(R[0]).substr(text(R[0]).size() - 9), "out += 3;");
}

// The region's text ends with its last statement's `;`, also after an `if`
// or a loop without braces, a macro, a do-while.
TEST_F(WidthRegionsTest, TheTextTakesTheLastSemicolon) {
  auto R = regions(R"cpp(
void f(int k, int &out) {
  {
    int a[MVECTOR_SIZE];
    a[0] = k;
    if (k)
      out = a[0] + MVECTOR_MAX;
  }
  {
    int b[MVECTOR_SIZE];
    for (int i = 0; i < 2; ++i)
      b[i] = i;
  }
  {
    int c[MVECTOR_SIZE];
    int i = 0;
    do { c[i] = i; } while (++i < 2);
  }
}
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 3u);
  for (const WidthRegion &X : R)
    EXPECT_TRUE(X.Problem.empty()) << X.Problem;
  EXPECT_EQ(text(R[0]).substr(text(R[0]).size() - 12), "MVECTOR_MAX;");
  EXPECT_EQ(text(R[1]).substr(text(R[1]).size() - 9), "b[i] = i;");
  EXPECT_EQ(text(R[2]).substr(text(R[2]).size() - 16), "while (++i < 2);");
}

// A region that returns returns the function's type as written: after the
// name (a trailing return type, a conversion's, a lambda's), with its
// qualifiers, `auto &`.
TEST_F(WidthRegionsTest, ReturnTypesAsWritten) {
  auto R = regions(R"cpp(
auto trailing(int k) -> long {
  int a[MVECTOR_SIZE];
  a[0] = k;
  return a[0];
}
struct C {
  int v;
  operator int() const {
    int a[MVECTOR_SIZE];
    a[0] = v;
    return a[0];
  }
  const int &ref() const {
    int a[MVECTOR_SIZE];
    a[0] = v;
    return a[0] ? v : v;
  }
};
auto &byRef(int &k) {
  int a[MVECTOR_SIZE];
  a[0] = k;
  return a[0] ? k : k;
}
const auto &constRef(int &k) {
  int a[MVECTOR_SIZE];
  a[0] = k;
  return a[0] ? k : k;
}
const int *constPointer(int *p) {
  int a[MVECTOR_SIZE];
  a[0] = *p;
  return a[0] ? p : p;
}
int lambda() {
  auto f = [](int k) -> unsigned {
    int a[MVECTOR_SIZE];
    a[0] = k;
    return a[0];
  };
  return int(f(1));
}
)cpp",
                   "trailing");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].ReturnType, "long");
  for (auto [Fn, Type] :
       {std::pair<const char *, const char *>{"operator int", "int"},
        {"ref", "const int &"},
        {"byRef", "auto &"},
        {"constRef", "const auto &"},
        {"constPointer", "const int *"},
        {"lambda", "unsigned"}}) {
    const FunctionDecl *F = TU->function(Fn);
    ASSERT_TRUE(F) << Fn;
    R = findWidthRegions(F, findHostWidthUses(F->getBody(), TU->context()),
                         TU->context());
    ASSERT_EQ(R.size(), 1u) << Fn;
    EXPECT_TRUE(R[0].Problem.empty()) << Fn << ": " << R[0].Problem;
    EXPECT_TRUE(R[0].ReturnsValue) << Fn;
    EXPECT_EQ(R[0].ReturnType, Type) << Fn;
  }
}

// A lambda is constexpr (so the width must be a constant in it) only where
// written so; in a constexpr function a run-time use needs a constant too.
TEST_F(WidthRegionsTest, ConstexprAsWritten) {
  auto R = regions(R"cpp(
int f(int k) {
  auto g = [](int x) {
    constexpr int w = MVECTOR_SIZE;
    return x + w;
  };
  auto h = [](int x) constexpr { return x * MVECTOR_SIZE; };
  return g(k) + h(k);
}
constexpr int c(int k) { return k * MVECTOR_SIZE; }
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 2u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_EQ(R[1].Problem,
            "a constexpr function (the width is known only at run time)");
  const FunctionDecl *C = TU->function("c");
  ASSERT_TRUE(C);
  R = findWidthRegions(C, findHostWidthUses(C->getBody(), TU->context()),
                       TU->context());
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(TU->lineColumn(R[0].ProblemLoc), TU->positionOf("c(int"));
}

// alignas and noexcept need constants; `::warpSize` is one use.
TEST_F(WidthRegionsTest, AttributesNoexceptAndQualifiedWarpSize) {
  auto R = regions(R"cpp(
int f(int k) {
  struct alignas(MVECTOR_SIZE * 4) A { int v; };
  auto g = [&]() noexcept(MVECTOR_SIZE == 32) { return k; };
  int q[::warpSize];
  q[0] = g();
  return int(alignof(A)) + q[0];
}
)cpp",
                   "f");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Problem.empty()) << R[0].Problem;
  EXPECT_EQ(TU->lineColumn(R[0].Range.getBegin()), TU->positionOf("struct"));
  std::vector<WidthUse> Uses =
      findHostWidthUses(TU->function("f")->getBody(), TU->context());
  ASSERT_EQ(Uses.size(), 3u);
  for (const WidthUse &U : Uses)
    EXPECT_EQ(U.Context, WidthUse::Constant);
  EXPECT_EQ(
      Lexer::getSourceText(Uses[2].Range, TU->sourceManager(), TU->langOpts()),
      "::warpSize");
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
  // In the text: a boundary inside a macro, in another #if branch; the
  // lambda's own name.
  R = regions(R"cpp(
#define BUMP(v) out += v; out += 1
void f(int k, int &out) {
  int a[MVECTOR_SIZE];
  a[0] = k;
  BUMP(a[0]);
  {
#if 1
    int b[MVECTOR_SIZE];
    b[0] = k;
#endif
    out = b[0];
  }
  {
    int c[MVECTOR_SIZE];
    c[0] = int(sizeof(__func__));
    out = c[0];
  }
}
)cpp",
              "f");
  ASSERT_EQ(R.size(), 3u);
  EXPECT_EQ(R[0].Problem, "statements written through a macro");
  EXPECT_EQ(TU->lineColumn(R[0].ProblemLoc), TU->positionOf("BUMP(a"));
  EXPECT_EQ(R[1].Problem.substr(0, 20), "an #if, #else or #en");
  EXPECT_EQ(TU->lineColumn(R[1].ProblemLoc), TU->positionOf("#endif"));
  EXPECT_EQ(R[2].Problem.substr(0, 36), "the name of the function (__func__),");
  EXPECT_EQ(TU->lineColumn(R[2].ProblemLoc), TU->positionOf("__func__"));
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
