//===- WidthModelTest.cpp - One warp-width decision per kernel ------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of WidthModel (lib/Analysis/WidthModel.h, docs/width-model.md): which
/// model each component gets, the facts behind the decision, how device
/// functions join their callers into one component, and the file-wide
/// narrowing once one component keeps 32-lane warps.
///
//===----------------------------------------------------------------------===//

#include "Analysis/WidthModel.h"
#include "Analysis/DeviceCallGraph.h"
#include "Analysis/DeviceCodeMap.h"
#include "AnalysisTestSupport.h"

#include "gtest/gtest.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

/// Builds the width model of a dialect snippet as RuleContext does: the
/// device call graph first, the model on it (and the map of device code,
/// which says where device code is).
class WidthModelTest : public ::testing::Test {
protected:
  /// Parses \p Code; false (and a failure) when it does not parse.
  bool build(llvm::StringRef Code) {
    TU = ParsedSource::parseDialect(Code);
    if (!parsed(*TU))
      return false;
    Graph = std::make_unique<DeviceCallGraph>(TU->context());
    Widths = std::make_unique<WidthModel>(TU->context(), *Graph);
    Device = std::make_unique<DeviceCodeMap>(TU->context(), *Graph);
    return true;
  }

  /// The decision for the function named \p Name.
  const WidthDecision &of(llvm::StringRef Name) {
    const FunctionDecl *FD = TU->function(Name);
    if (!FD) {
      ADD_FAILURE() << "no function '" << Name.str() << "'";
      return Missing;
    }
    return Widths->of(FD);
  }

  /// The decision for the \p N-th outermost `__device(hpp)` lambda.
  const WidthDecision &kernel(unsigned N = 0) {
    std::vector<const LambdaExpr *> Lambdas = TU->outermostDeviceLambdas();
    if (N >= Lambdas.size()) {
      ADD_FAILURE() << "no device lambda " << N;
      return Missing;
    }
    return Widths->of(Lambdas[N]->getCallOperator());
  }

  std::unique_ptr<ParsedSource> TU;
  std::unique_ptr<DeviceCallGraph> Graph;
  std::unique_ptr<WidthModel> Widths;
  std::unique_ptr<DeviceCodeMap> Device;
  WidthDecision Missing;
};

// Logical32 is the default: device code with neither a real-width use nor
// a 32-lane fact keeps CUDA's 32-lane warps, and nothing is narrowed.
TEST_F(WidthModelTest, CodeWithoutWarpWidthIsLogical32WithoutFacts) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int plain(int x) { return x * 3; }
)cpp"));
  const WidthDecision &D = of("plain");
  EXPECT_EQ(D.Model, WarpModel::Logical32);
  EXPECT_TRUE(D.RealWidth.Loc.isInvalid());
  EXPECT_TRUE(D.ThirtyTwo.Loc.isInvalid());
  EXPECT_FALSE(D.WideMask);
  EXPECT_FALSE(D.narrows());
  EXPECT_TRUE(Device->contains(TU->locationOf("x * 3")));
}

// Native needs a real-width use and no 32-lane fact. The full-mask literal
// 0xffffffff is no fact: hpp-lane-mask widens it (getWarpFullMask()).
TEST_F(WidthModelTest, RealWidthWithoutFactIsNative) {
  ASSERT_TRUE(build(R"cpp(
void run(Pointer<int> out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int v = 1;
    for (int o = warpSize / 2; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffff, v, o);
    out[i.getX()] = v;
  });
}
)cpp"));
  const WidthDecision &D = kernel();
  EXPECT_EQ(D.Model, WarpModel::Native);
  EXPECT_EQ(TU->lineColumn(D.RealWidth.Loc), TU->positionOf("warpSize"));
  EXPECT_EQ(D.RealWidth.What, "'warpSize'");
  EXPECT_TRUE(D.ThirtyTwo.Loc.isInvalid());
  EXPECT_FALSE(D.narrows());
}

// The mixed kernel of docs/width-model.md: the real width and `& 31`. It
// keeps 32-lane warps and its real-width uses stand for the logical warp.
TEST_F(WidthModelTest, LaneAnd31WithWarpSizeNarrows) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int lane31(int id) { int w = warpSize; return (id & 31) + w; }
)cpp"));
  const WidthDecision &D = of("lane31");
  EXPECT_EQ(D.Model, WarpModel::Logical32);
  EXPECT_TRUE(D.narrows());
  EXPECT_EQ(TU->lineColumn(D.ThirtyTwo.Loc), TU->positionOf("31)"));
  EXPECT_EQ(D.ThirtyTwo.What, "the literal '31'");
  EXPECT_EQ(D.RealWidth.What, "'warpSize'");
}

// FasterTransformer's blockReduceSum: 32-lane facts and no real-width use.
// Logical32, and nothing to narrow; the first fact is the tree's 16.
TEST_F(WidthModelTest, FactsWithoutRealWidthDoNotNarrow) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) float reduce(float val, int tid) {
  for (int m = 16; m > 0; m >>= 1)
    val += __shfl_xor_sync(0xffffffff, val, m, 32);
  int lane = tid & 0x1f;
  int wid = tid >> 5;
  return val + lane + wid;
}
)cpp"));
  const WidthDecision &D = of("reduce");
  EXPECT_EQ(D.Model, WarpModel::Logical32);
  EXPECT_FALSE(D.narrows());
  EXPECT_TRUE(D.RealWidth.Loc.isInvalid());
  EXPECT_EQ(TU->lineColumn(D.ThirtyTwo.Loc), TU->positionOf("16"));
  EXPECT_EQ(D.ThirtyTwo.What, "the literal '16'");
}

// What is not a fact (docs/width-model.md, and width-model-native.cpp): an
// offset added to a variable (`v + 32`), a shuffle width written with
// warpSize, the dialect's bound MVECTOR_MIN, a 0xffffffff that is no mask.
TEST_F(WidthModelTest, OffsetsBoundsAndHashSeedsAreNoFacts) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int native(int v, int id) {
  int slots[MVECTOR_MIN];
  slots[id % MVECTOR_MIN] = v;
  unsigned h = 0xffffffffu ^ unsigned(v);
  return __shfl_xor_sync(0xffffffff, v + 32, 1, warpSize) + int(h) + slots[0];
}
)cpp"));
  const WidthDecision &D = of("native");
  EXPECT_EQ(D.Model, WarpModel::Native);
  EXPECT_TRUE(D.ThirtyTwo.Loc.isInvalid()) << D.ThirtyTwo.What;
}

// A named constant of 32 is the literal under another name.
TEST_F(WidthModelTest, NamedConstantOf32IsAFact) {
  ASSERT_TRUE(build(R"cpp(
constexpr int kWarp = 32;
__device(hpp) int warpOf(int tid) { return tid / kWarp + warpSize; }
)cpp"));
  const WidthDecision &D = of("warpOf");
  EXPECT_EQ(D.Model, WarpModel::Logical32);
  EXPECT_TRUE(D.narrows());
  EXPECT_EQ(TU->lineColumn(D.ThirtyTwo.Loc), TU->positionOf("kWarp +"));
  EXPECT_EQ(D.ThirtyTwo.What, "the constant 'kWarp' (32)");
}

// A lane mask from a user function that returns it as 32 bits cannot be
// widened: a fact.
TEST_F(WidthModelTest, MaskFromNarrowHelperIsAFact) {
  ASSERT_TRUE(build(R"cpp(
inline unsigned fullMask() { return 0xffffffffu; }
__device(hpp) int bcast(int v) { return __shfl_sync(fullMask(), v, 0) + warpSize; }
)cpp"));
  const WidthDecision &D = of("bcast");
  EXPECT_EQ(D.Model, WarpModel::Logical32);
  EXPECT_TRUE(D.narrows());
  EXPECT_EQ(TU->lineColumn(D.ThirtyTwo.Loc), TU->positionOf("fullMask()", 1));
  EXPECT_EQ(D.ThirtyTwo.What,
            "a lane mask computed by 'fullMask', which returns it as 32 bits");
}

// A 64-bit mask names the whole wavefront: the real width. With a 32-lane
// fact the component runs as written; without one it is Native.
TEST_F(WidthModelTest, SixtyFourBitMaskWithFactIsAsWritten) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int asWritten(int v, int id) {
  return __shfl_sync(~0ull, v, 0) + (id & 31);
}
)cpp"));
  const WidthDecision &D = of("asWritten");
  EXPECT_EQ(D.Model, WarpModel::AsWritten);
  EXPECT_TRUE(D.WideMask);
  EXPECT_EQ(TU->lineColumn(D.RealWidth.Loc), TU->positionOf("~0ull"));
  EXPECT_EQ(D.RealWidth.What, "a 64-bit lane mask");
  EXPECT_EQ(D.ThirtyTwo.What, "the literal '31'");
  EXPECT_FALSE(D.narrows());
}

TEST_F(WidthModelTest, SixtyFourBitMaskWithoutFactIsNative) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int whole(int v) { return __shfl_sync(~0ull, v, 0); }
)cpp"));
  const WidthDecision &D = of("whole");
  EXPECT_EQ(D.Model, WarpModel::Native);
  EXPECT_TRUE(D.WideMask);
}

// A helper is compiled once, so the kernels that call it are one
// component: a kernel that alone would be Native keeps 32-lane warps with
// the one whose fact is `>> 5`, and the helper narrows with them. A device
// function that shares nothing with them is a component of its own.
TEST_F(WidthModelTest, SharedHelperJoinsKernelsOfDifferentWidths) {
  ASSERT_TRUE(build(R"cpp(
inline int laneOf(int id) { return id % warpSize; }
__device(hpp) int wide(int v) { return v + laneOf(v); }
__device(hpp) int narrow(int id) { return laneOf(id) + (id >> 5); }
__device(hpp) int other(int v) { return v * 2; }
)cpp"));
  const WidthDecision &Wide = of("wide");
  EXPECT_EQ(&Wide, &of("narrow"));
  EXPECT_EQ(&Wide, &of("laneOf"));
  EXPECT_EQ(Wide.Model, WarpModel::Logical32);
  EXPECT_TRUE(Wide.narrows());
  EXPECT_EQ(TU->lineColumn(Wide.RealWidth.Loc), TU->positionOf("warpSize"));
  EXPECT_EQ(TU->lineColumn(Wide.ThirtyTwo.Loc), TU->positionOf(">> 5"));
  EXPECT_EQ(Wide.ThirtyTwo.What, "a shift by 5 (a 32-lane warp index)");

  const WidthDecision &Other = of("other");
  EXPECT_NE(&Other, &Wide);
  EXPECT_EQ(Widths->decisions().size(), 2u);
  EXPECT_TRUE(Other.ThirtyTwo.Loc.isInvalid());
}

// A helper with nothing of the width in it (no warp operation, width,
// mask or fact, in it or its callees) is rewritten the same for every
// caller: the kernels that share it decide apart, and it is a component
// of its own. A helper that holds a mask, or calls warp code, still joins.
TEST_F(WidthModelTest, WidthFreeHelperJoinsNoKernels) {
  ASSERT_TRUE(build(R"cpp(
inline int loadOr(Pointer<int> p, int g, int n) { return g < n ? p[g] : 0; }
inline int twice(Pointer<int> p, int g, int n) { return 2 * loadOr(p, g, n); }
__device(hpp) bool has(unsigned m, int l) { return (m >> l) & 1u; }
inline int total(int v) { return __shfl_xor_sync(0xffffffffu, v, 1); }
inline int viaTotal(int v) { return total(v) + 1; }
void run(Pointer<int> in, Pointer<int> out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int g = int(i.getX());
    unsigned long long b = __ballot_sync(~0ull, twice(in, g, n) != 0);
    if ((g & 31) == 0)
      out[g] = int(__popcll(b));
  });
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int g = int(i.getX());
    int v = loadOr(in, g, n);
    for (int o = warpSize / 2; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffffu, v, o, warpSize);
    out[g] = viaTotal(v) + has(__ballot_sync(0xffffffffu, v > 0), 3);
  });
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    int g = int(i.getX());
    out[g] = viaTotal(loadOr(in, g, n) + warpSize);
  });
}
)cpp"));
  const WidthDecision &Mixed = kernel(0), &Wide = kernel(1);
  EXPECT_EQ(Mixed.Model, WarpModel::AsWritten);
  EXPECT_NE(&Mixed, &Wide);
  EXPECT_NE(&of("loadOr"), &Mixed);
  EXPECT_NE(&of("loadOr"), &Wide);
  EXPECT_NE(&of("twice"), &Wide);
  EXPECT_EQ(of("loadOr").Model, WarpModel::Logical32);
  EXPECT_TRUE(of("loadOr").RealWidth.Loc.isInvalid());
  EXPECT_TRUE(of("loadOr").ThirtyTwo.Loc.isInvalid());
  // A mask parameter and warp code reached through a plain helper join.
  EXPECT_EQ(&of("has"), &Wide);
  EXPECT_EQ(&of("total"), &Wide);
  EXPECT_EQ(&of("viaTotal"), &Wide);
  EXPECT_EQ(&kernel(2), &Wide);
  // The kernels of a component are its roots: the mixed kernel alone, the
  // second and third kernels together.
  ASSERT_EQ(Mixed.Roots.size(), 1u);
  EXPECT_EQ(TU->lineColumn(Mixed.Roots[0].RealWidth.Loc),
            TU->positionOf("~0ull"));
  ASSERT_EQ(Wide.Roots.size(), 2u);
  EXPECT_EQ(TU->lineColumn(Wide.Roots[1].RealWidth.Loc),
            TU->positionOf("warpSize);\n  });"));
  EXPECT_TRUE(of("loadOr").Roots.empty());
  // Apart from the mixed kernel (which runs as written and narrows
  // nothing), the second and third run on whole wavefronts.
  EXPECT_EQ(Wide.Model, WarpModel::Native);
}

// Kernels that share no function still agree on what a warp is: once one
// keeps 32-lane warps for a fact, one that would be Native narrows too,
// and its fact points at the other kernel's.
TEST_F(WidthModelTest, OneNarrowingComponentNarrowsTheFile) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int wide(int v) { return v % warpSize; }
__device(hpp) int narrow(int id) { return id >> 5; }
)cpp"));
  ASSERT_EQ(Widths->decisions().size(), 2u);
  const WidthDecision &Narrow = of("narrow");
  EXPECT_EQ(Narrow.Model, WarpModel::Logical32);
  EXPECT_FALSE(Narrow.narrows());

  const WidthDecision &Wide = of("wide");
  EXPECT_NE(&Wide, &Narrow);
  EXPECT_EQ(Wide.Model, WarpModel::Logical32);
  EXPECT_TRUE(Wide.narrows());
  EXPECT_EQ(TU->lineColumn(Wide.ThirtyTwo.Loc), TU->positionOf(">> 5"));
  EXPECT_EQ(Wide.ThirtyTwo.What,
            "another kernel of this file keeps 32-lane warps (a shift by 5 "
            "(a 32-lane warp index))");
}

// at(): a lambda nested in device code is part of the enclosing function's
// component; a host function's body is no device code.
TEST_F(WidthModelTest, LocationsFindTheirComponent) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int outer(int v) {
  auto add = [](int a, int b) { return a + b; };
  return add(v, warpSize);
}
int host(int v) { return v + 1; }
)cpp"));
  EXPECT_TRUE(Device->contains(TU->locationOf("a + b")));
  EXPECT_EQ(&Widths->at(TU->locationOf("a + b")), &of("outer"));
  EXPECT_EQ(of("outer").Model, WarpModel::Native);
  EXPECT_FALSE(Device->contains(TU->locationOf("v + 1")));
  EXPECT_EQ(Widths->at(TU->locationOf("v + 1")).Model, WarpModel::Logical32);
  EXPECT_TRUE(Widths->at(TU->locationOf("v + 1")).RealWidth.Loc.isInvalid());
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
