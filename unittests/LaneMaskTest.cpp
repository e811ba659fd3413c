//===- LaneMaskTest.cpp - Lane masks in device code -----------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of LaneMaskFlow and the mask helpers (lib/Analysis/LaneMask.h): which
/// variables of device code are lane masks, how a mask flows through
/// variables, bit operations and parameters, which mask literals the flow
/// finds, and where a mask escapes to a place whose type the tool does not
/// change.
///
//===----------------------------------------------------------------------===//

#include "Analysis/LaneMask.h"
#include "AnalysisTestSupport.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

/// Solves the lane-mask flow of a dialect snippet from the roots the width
/// model gives it (WidthModel.cpp): every `__device(hpp)` function, with
/// parameters the tool may retype, and every outermost device lambda.
class LaneMaskTest : public ::testing::Test {
protected:
  /// Parses \p Code and solves; false (and a failure) when it does not
  /// parse.
  bool solve(llvm::StringRef Code) {
    TU = ParsedSource::parseDialect(Code);
    if (!parsed(*TU))
      return false;
    for (const FunctionDecl *F : TU->deviceFunctions())
      Flow.addRoot(F, F->getBody(), /*EditableParameters=*/true);
    for (const LambdaExpr *LE : TU->outermostDeviceLambdas())
      Flow.addRoot(LE->getCallOperator(), LE->getBody(),
                   /*EditableParameters=*/false);
    Flow.solve(TU->context());
    return true;
  }

  /// The variable or parameter named \p Name (a failure when none).
  const VarDecl *var(llvm::StringRef Name) {
    const VarDecl *VD = TU->variable(Name);
    if (!VD)
      ADD_FAILURE() << "no variable '" << Name.str() << "'";
    return VD;
  }
  bool isMaskVariable(llvm::StringRef Name) {
    const VarDecl *VD = var(Name);
    return VD && Flow.isMaskVariable(VD);
  }
  /// Whether the literal spelled \p Text (its \p Nth occurrence) is one of
  /// maskLiterals().
  bool isMaskLiteral(llvm::StringRef Text, unsigned Nth = 0) {
    const Expr *E = TU->exprAt(Text, Nth);
    if (!E) {
      ADD_FAILURE() << "no expression '" << Text.str() << "'";
      return false;
    }
    return llvm::is_contained(Flow.maskLiterals(), E->IgnoreImplicit());
  }

  std::unique_ptr<ParsedSource> TU;
  LaneMaskFlow Flow;
};

// A ballot's result is a mask, and so is the variable that holds it; a
// mask bit function of it is a bitCall. Returning __popc's int is no store
// of a mask.
TEST_F(LaneMaskTest, BallotResultMakesItsVariableAMask) {
  ASSERT_TRUE(solve(R"cpp(
__device(hpp) int votes(int p) {
  unsigned m = __ballot_sync(0xffffffff, p);
  return __popc(m);
}
)cpp"));
  EXPECT_TRUE(isMaskVariable("m"));
  EXPECT_TRUE(Flow.isLocal(var("m")));
  ASSERT_EQ(Flow.bitCalls().size(), 1u);
  EXPECT_EQ(Flow.bitCalls()[0], TU->exprAt("__popc(m)"));
  EXPECT_TRUE(Flow.escapes().empty());
}

// A mask literal reaches an intrinsic through a variable: the variable is a
// mask (the intrinsic's argument forces it), and the literal, its whole
// value, is a mask literal the tool may widen.
TEST_F(LaneMaskTest, ConstantReachesIntrinsicThroughVariable) {
  ASSERT_TRUE(solve(R"cpp(
__device(hpp) int bcast(int v) {
  unsigned full = 0xffffffff;
  return __shfl_sync(full, v, 0);
}
)cpp"));
  EXPECT_TRUE(isMaskVariable("full"));
  EXPECT_TRUE(isMaskLiteral("0xffffffff"));
  EXPECT_TRUE(Flow.isWholeMask(TU->exprAt("0xffffffff")->IgnoreImplicit()));
  EXPECT_TRUE(Flow.isMask(TU->exprAt("full", 1)));
}

// A full-mask literal alone does not make a variable a mask (a hash seed
// may be 0xffffffff); nothing here is one.
TEST_F(LaneMaskTest, FullLiteralWithoutMaskUseIsNoMask) {
  ASSERT_TRUE(solve(R"cpp(
__device(hpp) unsigned hash(unsigned v) {
  unsigned seed = 0xffffffffu;
  return seed ^ v;
}
)cpp"));
  EXPECT_FALSE(isMaskVariable("seed"));
  EXPECT_FALSE(isMaskVariable("v"));
  EXPECT_TRUE(Flow.maskVariables().empty());
  EXPECT_TRUE(Flow.maskLiterals().empty());
  EXPECT_TRUE(Flow.escapes().empty());
}

// `& ~`, and a lane bit: a bit operation on a mask is a mask, and the `1u`
// of `1u << lane` in it is shifted into lane positions.
TEST_F(LaneMaskTest, MaskFlowsThroughBitOperations) {
  ASSERT_TRUE(solve(R"cpp(
__device(hpp) int others(int lane) {
  unsigned active = __activemask();
  unsigned rest = active & ~(1u << lane);
  return __popc(rest);
}
)cpp"));
  EXPECT_TRUE(isMaskVariable("active"));
  EXPECT_TRUE(isMaskVariable("rest"));
  EXPECT_FALSE(isMaskVariable("lane"));
  EXPECT_TRUE(isMaskLiteral("1u"));
  EXPECT_TRUE(Flow.isShifted(TU->exprAt("1u")->IgnoreImplicit()));
  EXPECT_FALSE(Flow.isWholeMask(TU->exprAt("1u")->IgnoreImplicit()));
}

// A mask passed to a `__device(hpp)` function makes its parameter a mask
// (its type the tool may change: a root's parameters are editable).
TEST_F(LaneMaskTest, MaskFlowsIntoDeviceFunctionParameter) {
  ASSERT_TRUE(solve(R"cpp(
__device(hpp) int count(unsigned m) { return __popc(m); }
__device(hpp) int votes(int p) { return count(__ballot_sync(0xffffffff, p)); }
)cpp"));
  EXPECT_TRUE(isMaskVariable("m"));
  EXPECT_TRUE(Flow.isLocal(var("m")));
  EXPECT_FALSE(isMaskVariable("p"));
  EXPECT_TRUE(Flow.escapes().empty());
}

// A mask passed to a function the tool does not retype (no `__device(hpp)`)
// escapes through the narrow parameter.
TEST_F(LaneMaskTest, MaskPassedToOtherFunctionEscapes) {
  ASSERT_TRUE(solve(R"cpp(
inline int lowLanes(unsigned m) { return int(m & 0xffu); }
__device(hpp) int votes(int p) {
  return lowLanes(__ballot_sync(0xffffffff, p));
}
)cpp"));
  EXPECT_FALSE(isMaskVariable("m"));
  ASSERT_EQ(Flow.escapes().size(), 1u);
  const MaskEscape &E = Flow.escapes()[0];
  EXPECT_EQ(E.Kind, MaskEscape::Parameter);
  EXPECT_EQ(E.Target, var("m"));
  EXPECT_EQ(E.At, TU->exprAt("__ballot_sync(0xffffffff, p)"));
}

// A mask stored in a field escapes: the field keeps its type.
TEST_F(LaneMaskTest, MaskStoredInFieldEscapes) {
  ASSERT_TRUE(solve(R"cpp(
struct Votes { unsigned bits; };
__device(hpp) int field(int p) {
  Votes v;
  v.bits = __ballot_sync(0xffffffff, p);
  return int(v.bits);
}
)cpp"));
  ASSERT_EQ(Flow.escapes().size(), 1u);
  const MaskEscape &E = Flow.escapes()[0];
  EXPECT_EQ(E.Kind, MaskEscape::Field);
  ASSERT_NE(E.Target, nullptr);
  EXPECT_EQ(E.Target->getName(), "bits");
  EXPECT_EQ(E.At, TU->exprAt("v.bits = __ballot_sync(0xffffffff, p)"));
  EXPECT_TRUE(E.Type->isUnsignedIntegerType());
}

// A mask returned as a narrow integer escapes through the return type.
TEST_F(LaneMaskTest, MaskReturnedAsNarrowIntegerEscapes) {
  ASSERT_TRUE(solve(R"cpp(
__device(hpp) unsigned votes(int p) { return __ballot_sync(0xffffffff, p); }
)cpp"));
  ASSERT_EQ(Flow.escapes().size(), 1u);
  const MaskEscape &E = Flow.escapes()[0];
  EXPECT_EQ(E.Kind, MaskEscape::Return);
  EXPECT_EQ(E.Target, TU->function("votes"));
}

// A variable outside device code used as a mask is not retyped (it is not
// a local of device code): it escapes, and is no mask variable.
TEST_F(LaneMaskTest, OuterConstantUsedAsMaskEscapes) {
  ASSERT_TRUE(solve(R"cpp(
const unsigned kFullMask = 0xffffffff;
__device(hpp) int bcast(int v) { return __shfl_sync(kFullMask, v, 0); }
)cpp"));
  EXPECT_FALSE(isMaskVariable("kFullMask"));
  EXPECT_FALSE(Flow.isLocal(var("kFullMask")));
  ASSERT_EQ(Flow.escapes().size(), 1u);
  EXPECT_EQ(Flow.escapes()[0].Kind, MaskEscape::OuterVariable);
  EXPECT_EQ(Flow.escapes()[0].Target, var("kFullMask"));
}

// hpp-syncwarp drops the arguments of __syncwarp (LaneMask.cpp): its mask
// argument makes nothing a mask.
TEST_F(LaneMaskTest, SyncwarpArgumentIsNotFollowed) {
  ASSERT_TRUE(solve(R"cpp(
__device(hpp) void sync() {
  unsigned m = 0xffffffff;
  __syncwarp(m);
}
)cpp"));
  EXPECT_FALSE(isMaskVariable("m"));
  EXPECT_TRUE(Flow.maskLiterals().empty());
}

// `unsigned a, b;`: the variables that share one type specifier, which the
// tool cannot retype one by one.
TEST_F(LaneMaskTest, VariablesSharingATypeSpecifier) {
  ASSERT_TRUE(solve(R"cpp(
__device(hpp) int shared(int p) {
  unsigned even = __ballot_sync(0xffffffff, p), seen = 0;
  return int(even + seen);
}
)cpp"));
  const VarDecl *Even = var("even"), *Seen = var("seen");
  ASSERT_TRUE(Even && Seen);
  EXPECT_TRUE(Flow.isMaskVariable(Even));
  EXPECT_FALSE(Flow.isMaskVariable(Seen));
  SourceRange Spec = typeSpecifierRange(Even);
  ASSERT_TRUE(Spec.isValid());
  EXPECT_EQ(TU->lineColumn(Spec.getBegin()), TU->positionOf("unsigned even"));
  llvm::ArrayRef<const VarDecl *> Sharing =
      Flow.sharingTypeSpecifier(Spec.getBegin());
  EXPECT_EQ(std::vector<const VarDecl *>(Sharing.begin(), Sharing.end()),
            (std::vector<const VarDecl *>{Even, Seen}));
}

// classifyMaskLiteral: what a literal-only expression names as a mask.
TEST(MaskLiteralTest, ClassifiesLiterals) {
  std::unique_ptr<ParsedSource> TU = ParsedSource::parse(R"cpp(
unsigned long long a = 0xffffffff, b = ~0u, c = -1, d = ~0ull, e = 0,
  f = 0xff, g = 1u << 3, h = 0x0000ffff, i = 0xffff0000, j = 0x1f + 1;
int k = 7;
unsigned long long l = k;
)cpp");
  ASSERT_TRUE(TU->ok()) << TU->diagnostics();
  const ASTContext &Ctx = TU->context();
  // The class of the initialiser of the variable \p Name.
  auto Kind = [&](llvm::StringRef Name) {
    const VarDecl *VD = TU->variable(Name);
    EXPECT_TRUE(VD && VD->getInit()) << Name.str();
    return VD && VD->getInit() ? classifyMaskLiteral(VD->getInit(), Ctx)
                               : MaskLiteral::None;
  };
  EXPECT_EQ(Kind("a"), MaskLiteral::Full);    // 0xffffffff
  EXPECT_EQ(Kind("b"), MaskLiteral::Full);    // ~0u
  EXPECT_EQ(Kind("c"), MaskLiteral::Full);    // -1
  EXPECT_EQ(Kind("d"), MaskLiteral::Full);    // ~0ull
  EXPECT_EQ(Kind("e"), MaskLiteral::Empty);   // 0
  EXPECT_EQ(Kind("f"), MaskLiteral::Low);     // 0xff
  EXPECT_EQ(Kind("g"), MaskLiteral::Low);     // 1u << 3
  EXPECT_EQ(Kind("h"), MaskLiteral::Partial); // 0x0000ffff
  EXPECT_EQ(Kind("i"), MaskLiteral::Partial); // 0xffff0000
  EXPECT_EQ(Kind("j"), MaskLiteral::Low);     // 0x1f + 1
  EXPECT_EQ(Kind("l"), MaskLiteral::None);    // a variable
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
