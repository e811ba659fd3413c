//===- DeviceCallGraphTest.cpp - What device code calls -------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of DeviceCallGraph (lib/Analysis/DeviceCallGraph.h): the functions a
/// parallelFor body or a `__device(hpp)` function reaches, through helpers,
/// constructors, templates and lambdas; how each callee is classified;
/// which functions only the device can run.
///
//===----------------------------------------------------------------------===//

#include "Analysis/DeviceCallGraph.h"
#include "AnalysisTestSupport.h"

#include "gtest/gtest.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

class DeviceCallGraphTest : public ::testing::Test {
protected:
  /// Parses \p Code and builds the graph; false (and a failure) when it
  /// does not parse.
  bool build(llvm::StringRef Code) {
    TU = ParsedSource::parseDialect(Code);
    if (!parsed(*TU))
      return false;
    Graph = std::make_unique<DeviceCallGraph>(TU->context());
    return true;
  }

  /// The function named \p Name (a failure when none).
  const FunctionDecl *fn(llvm::StringRef Name) {
    const FunctionDecl *FD = TU->function(Name);
    if (!FD)
      ADD_FAILURE() << "no function '" << Name.str() << "'";
    return FD;
  }
  /// Whether the graph followed the body of \p FD.
  bool reached(const FunctionDecl *FD) {
    return FD && llvm::is_contained(Graph->functions(), FD);
  }
  bool reached(llvm::StringRef Name) { return reached(fn(Name)); }
  /// The calls of \p Callee the graph recorded.
  std::vector<DeviceCallGraph::Call> callsOf(const FunctionDecl *Callee) {
    std::vector<DeviceCallGraph::Call> Out;
    for (const DeviceCallGraph::Call &C : Graph->calls())
      if (C.Callee == Callee)
        Out.push_back(C);
    return Out;
  }
  /// The function the call spelled \p Call calls.
  const FunctionDecl *calleeOf(llvm::StringRef Call) {
    const Expr *E = TU->exprAt(Call);
    const auto *CE = E ? dyn_cast<CallExpr>(E->IgnoreImplicit()) : nullptr;
    if (!CE || !CE->getDirectCallee())
      ADD_FAILURE() << "no call '" << Call.str() << "'";
    return CE ? CE->getDirectCallee() : nullptr;
  }

  std::unique_ptr<ParsedSource> TU;
  std::unique_ptr<DeviceCallGraph> Graph;
};

// A parallelFor body is a root; the inline and constexpr helpers it calls,
// and theirs, are followed; each call names its caller (the body's call
// operator for the lambda: WidthModel joins a body with its callees
// through it) and where the callee's name is spelled.
TEST_F(DeviceCallGraphTest, ParallelForBodyReachesHelpersTransitively) {
  ASSERT_TRUE(build(R"cpp(
constexpr int plusOne(int x) { return x + 1; }
inline int twice(int x) { return 2 * plusOne(x); }
void run(Pointer<int> out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    out[i.getX()] = twice(int(i.getX()));
  });
}
)cpp"));
  ASSERT_EQ(TU->outermostDeviceLambdas().size(), 1u);
  const CXXMethodDecl *Body =
      TU->outermostDeviceLambdas()[0]->getCallOperator();
  EXPECT_TRUE(reached(Body));
  EXPECT_TRUE(reached("twice"));
  EXPECT_TRUE(reached("plusOne"));
  EXPECT_FALSE(reached("run"));

  std::vector<DeviceCallGraph::Call> Twice = callsOf(fn("twice"));
  ASSERT_EQ(Twice.size(), 1u);
  EXPECT_EQ(Twice[0].Caller, Body);
  EXPECT_EQ(TU->lineColumn(Twice[0].NameLoc), TU->positionOf("twice(int", 1));
  std::vector<DeviceCallGraph::Call> PlusOne = callsOf(fn("plusOne"));
  ASSERT_EQ(PlusOne.size(), 1u);
  EXPECT_EQ(PlusOne[0].Caller, fn("twice"));
  EXPECT_EQ(TU->lineColumn(PlusOne[0].Loc), TU->positionOf("plusOne(x)"));
}

// A function that is neither annotated, inline, constexpr nor a template
// is host code: the call is recorded (hpp-host-call-in-device reports it)
// but its body is not device code, so what it calls is not reached.
TEST_F(DeviceCallGraphTest, HostFunctionIsCalledButNotFollowed) {
  ASSERT_TRUE(build(R"cpp(
inline int deep(int x) { return x - 1; }
int hostOnly(int x) { return deep(x); }
__device(hpp) int k(int v) { return hostOnly(v); }
)cpp"));
  EXPECT_TRUE(reached("k"));
  EXPECT_EQ(DeviceCallGraph::classify(fn("hostOnly"), TU->sourceManager()),
            CalleeKind::Host);
  EXPECT_EQ(callsOf(fn("hostOnly")).size(), 1u);
  EXPECT_FALSE(reached("hostOnly"));
  EXPECT_FALSE(reached("deep"));
  EXPECT_TRUE(callsOf(fn("deep")).empty());
}

// Functions only host code calls are not device code, inline or not.
TEST_F(DeviceCallGraphTest, FunctionsOnlyHostCodeCallsAreNotReached) {
  ASSERT_TRUE(build(R"cpp(
inline int hostHelper(int x) { return x * 2; }
int main() {
  Pointer<int> out = allocate<int>(4);
  out[0] = hostHelper(1);
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    out[i.getX()] = 1;
  });
  deallocate(out);
}
)cpp"));
  EXPECT_FALSE(reached("hostHelper"));
  EXPECT_FALSE(Graph->isImplicitDevice(fn("hostHelper")));
  EXPECT_FALSE(reached("main"));
  EXPECT_TRUE(callsOf(fn("hostHelper")).empty());
}

// A function template is followed through the instantiation device code
// calls (its pattern is not scanned); the pattern is an implicit device
// function, compiled for the device because device code calls it.
TEST_F(DeviceCallGraphTest, TemplateIsReachedThroughItsInstantiation) {
  ASSERT_TRUE(build(R"cpp(
inline int leaf(int x) { return x; }
template <typename T> T laneOf(T x) { return leaf(int(x)) % T(warpSize); }
__device(hpp) int k(int v) { return laneOf(v) + laneOf(long(v)); }
)cpp"));
  const FunctionDecl *Pattern = fn("laneOf");
  ASSERT_NE(Pattern, nullptr);
  EXPECT_FALSE(reached(Pattern));
  unsigned Instantiations = 0;
  for (const FunctionDecl *FD : Graph->functions())
    if (FD->getTemplateInstantiationPattern() == Pattern)
      ++Instantiations;
  EXPECT_EQ(Instantiations, 2u);
  EXPECT_TRUE(Graph->isImplicitDevice(Pattern));
  EXPECT_EQ(
      DeviceCallGraph::classify(calleeOf("laneOf(v)"), TU->sourceManager()),
      CalleeKind::Implicit);
  EXPECT_TRUE(reached("leaf"));
  // One call of leaf from each instantiation.
  EXPECT_EQ(callsOf(fn("leaf")).size(), 2u);
}

// A lambda written inside device code is device code: its call operator
// is followed, and so is what it calls. The lambda is also part of the
// body it is written in (WidthModel joins them), whose walk goes through
// it: its calls are recorded once for each of the two.
TEST_F(DeviceCallGraphTest, LambdaInDeviceCodeIsFollowed) {
  ASSERT_TRUE(build(R"cpp(
inline int twice(int x) { return 2 * x; }
void run(Pointer<int> out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    auto f = [](int k) { return twice(k); };
    out[i.getX()] = f(int(i.getX()));
  });
}
)cpp"));
  std::vector<const LambdaExpr *> Lambdas = TU->lambdas();
  ASSERT_EQ(Lambdas.size(), 2u);
  EXPECT_TRUE(reached(Lambdas[0]->getCallOperator()));
  EXPECT_TRUE(reached(Lambdas[1]->getCallOperator()));
  EXPECT_TRUE(reached("twice"));
  std::vector<DeviceCallGraph::Call> Twice = callsOf(fn("twice"));
  ASSERT_EQ(Twice.size(), 2u);
  EXPECT_EQ(Twice[0].Caller, Lambdas[0]->getCallOperator());
  EXPECT_EQ(Twice[1].Caller, Lambdas[1]->getCallOperator());
  EXPECT_EQ(Twice[0].Loc, Twice[1].Loc);
}

// Constructor calls are followed like calls (a non-trivial constructor's
// body runs on the device); a constructor call spells no name.
TEST_F(DeviceCallGraphTest, ConstructorsAreFollowed) {
  ASSERT_TRUE(build(R"cpp(
inline int twice(int x) { return 2 * x; }
struct Acc {
  int v;
  Acc(int x) { v = twice(x); }
};
__device(hpp) int k(int x) {
  Acc a(x);
  return a.v;
}
)cpp"));
  const FunctionDecl *Ctor = fn("Acc");
  ASSERT_NE(Ctor, nullptr);
  ASSERT_TRUE(isa<CXXConstructorDecl>(Ctor));
  EXPECT_TRUE(reached(Ctor));
  EXPECT_TRUE(reached("twice"));
  std::vector<DeviceCallGraph::Call> Calls = callsOf(Ctor);
  ASSERT_EQ(Calls.size(), 1u);
  EXPECT_EQ(Calls[0].Caller, fn("k"));
  EXPECT_TRUE(Calls[0].NameLoc.isInvalid());
}

// A constructor's member initializers, and the default member initializers
// it runs, are device code as much as its body is: `twice` and `fourfold`
// are reached (before, scanBody() walked only the body, and nvcc warned
// for the rewritten constructor "calling a __host__ function from a
// __host__ __device__ function is not allowed", #20014; hipcc refused it).
TEST_F(DeviceCallGraphTest, CallsInMemberInitializersAreFollowed) {
  ASSERT_TRUE(build(R"cpp(
inline int twice(int x) { return 2 * x; }
inline int fourfold(int x) { return 4 * x; }
struct Acc {
  int v;
  int w = fourfold(1);
  Acc(int x) : v(twice(x)) {}
};
__device(hpp) int k(int x) {
  Acc a(x);
  return a.v + a.w;
}
)cpp"));
  EXPECT_TRUE(reached("Acc"));
  EXPECT_TRUE(reached("twice"));
  EXPECT_TRUE(reached("fourfold"));
}

// A default argument is evaluated where the call is, in device code:
// `seven` is reached (before, the graph's visitor did not walk
// CXXDefaultArgExpr, and nvcc rejected the output: "calling a __host__
// function("seven()") from a __global__ function is not allowed").
TEST_F(DeviceCallGraphTest, CallsInDefaultArgumentsAreFollowed) {
  ASSERT_TRUE(build(R"cpp(
inline int seven() { return 7; }
inline int withDefault(int x, int y = seven()) { return x + y; }
__device(hpp) int k(int x) { return withDefault(x); }
)cpp"));
  EXPECT_TRUE(reached("withDefault"));
  EXPECT_TRUE(reached("seven"));
}

// classify(): how device code may use each kind of callee (the table of
// DeviceLibrary.def for the host's library).
TEST_F(DeviceCallGraphTest, ClassifiesCallees) {
  ASSERT_TRUE(build(R"cpp(
#include <cstdio>
__device(hpp) int annotated(int x) { return x; }
inline int inlined(int x) { return x; }
constexpr int constant(int x) { return x; }
int host(int x) { return x; }
__device(hpp) int k(int v) {
  int a = annotated(v) + inlined(v) + constant(v) + host(v);
  int b = __shfl_sync(0xffffffff, v, 0) + std::abs(v) + std::max(a, v);
  printf("%d\n", a + b);
  return a + b;
}
)cpp"));
  const SourceManager &SM = TU->sourceManager();
  auto Kind = [&](llvm::StringRef Call) {
    const FunctionDecl *FD = calleeOf(Call);
    return FD ? DeviceCallGraph::classify(FD, SM) : CalleeKind::Host;
  };
  EXPECT_EQ(Kind("annotated(v)"), CalleeKind::Annotated);
  EXPECT_EQ(Kind("inlined(v)"), CalleeKind::Implicit);
  EXPECT_EQ(Kind("constant(v)"), CalleeKind::Implicit);
  EXPECT_EQ(Kind("host(v)"), CalleeKind::Host);
  // The dialect's intrinsics and the device's C library.
  EXPECT_EQ(Kind("__shfl_sync(0xffffffff, v, 0)"), CalleeKind::Library);
  EXPECT_EQ(Kind("std::abs(v)"), CalleeKind::Library);
  EXPECT_EQ(Kind("printf(\"%d\\n\", a + b)"), CalleeKind::Library);
  // A constexpr function of the host's C++ library is host code for nvcc.
  EXPECT_EQ(Kind("std::max(a, v)"), CalleeKind::Host);
}

// A function that runs a warp intrinsic can only be compiled for the
// device, and so can every caller of it; a helper that only computes is
// host-device.
TEST_F(DeviceCallGraphTest, DeviceOnlyPropagatesToCallers) {
  ASSERT_TRUE(build(R"cpp(
inline int shuffle(int v) { return __shfl_xor_sync(0xffffffffu, v, 1); }
inline int viaShuffle(int v) { return shuffle(v) + 1; }
inline int arithmetic(int v) { return v * 2; }
__device(hpp) int k(int v) { return viaShuffle(v) + arithmetic(v); }
__device(hpp) int plain(int v) { return arithmetic(v); }
)cpp"));
  EXPECT_TRUE(Graph->isDeviceOnly(fn("shuffle")));
  EXPECT_TRUE(Graph->isDeviceOnly(fn("viaShuffle")));
  EXPECT_TRUE(Graph->isDeviceOnly(fn("k")));
  EXPECT_FALSE(Graph->isDeviceOnly(fn("arithmetic")));
  EXPECT_FALSE(Graph->isDeviceOnly(fn("plain")));
}

// A `__device(hpp)` function is a root even when nothing calls it.
TEST_F(DeviceCallGraphTest, UncalledDeviceFunctionIsARoot) {
  ASSERT_TRUE(build(R"cpp(
inline int helper(int x) { return x; }
__device(hpp) int lonely(int x) { return helper(x); }
)cpp"));
  EXPECT_TRUE(reached("lonely"));
  EXPECT_TRUE(reached("helper"));
  EXPECT_FALSE(Graph->isImplicitDevice(fn("lonely")));
  EXPECT_TRUE(Graph->isImplicitDevice(fn("helper")));
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
