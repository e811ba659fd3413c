//===- DeviceCodeTest.cpp - The one definition of device code -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of DeviceCodeMap (lib/Analysis/DeviceCodeMap.h; the kinds of roots
/// are lib/Dialect/DeviceRootKinds.def): each kind of root is found, once,
/// with its body; a lambda nested in a root is part of it; what of a root
/// is device code (a device function's default arguments are, a body's
/// init-captures are not); the root matchers the rules register find the
/// same roots.
///
//===----------------------------------------------------------------------===//

#include "Analysis/DeviceCallGraph.h"
#include "Analysis/DeviceCodeMap.h"
#include "AnalysisTestSupport.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

/// Builds the map of a dialect snippet's device code as RuleContext does:
/// the device call graph first, the map on it.
class DeviceCodeTest : public ::testing::Test {
protected:
  /// Parses \p Code; false (and a failure) when it does not parse.
  bool build(llvm::StringRef Code, bool Cuda = false) {
    TU = Cuda ? ParsedSource::parseCuda(Code) : ParsedSource::parseDialect(Code);
    if (!parsed(*TU))
      return false;
    Graph = std::make_unique<DeviceCallGraph>(TU->context());
    Map = std::make_unique<DeviceCodeMap>(TU->context(), *Graph);
    return true;
  }

  /// The roots, in order: their kind, "(nested)" when not outermost.
  std::vector<std::string> roots() const {
    std::vector<std::string> Out;
    for (const DeviceRoot &R : Map->roots())
      Out.push_back(kindName(R.Kind).str() + (R.Outermost ? "" : " (nested)"));
    return Out;
  }

  /// Whether the \p Nth occurrence of \p Needle is device code.
  bool inDeviceCode(llvm::StringRef Needle, unsigned Nth = 0) const {
    return Map->contains(TU->locationOf(Needle, Nth));
  }

  /// The root of the function named \p Name (a failure when none).
  const DeviceRoot *rootOf(llvm::StringRef Name) {
    const FunctionDecl *FD = TU->function(Name);
    if (!FD) {
      ADD_FAILURE() << "no function '" << Name.str() << "'";
      return nullptr;
    }
    return Map->rootOf(FD);
  }

  std::unique_ptr<ParsedSource> TU;
  std::unique_ptr<DeviceCallGraph> Graph;
  std::unique_ptr<DeviceCodeMap> Map;
};

using Strings = std::vector<std::string>;

// One snippet with a root of each row of the table. The roots come in the
// order the AST matchers find them, which the rules' callbacks see: the
// statements of a block before what is inside them (the consumer before
// the Task body, which is inside its variable's declaration). A root is its
// function (the definition) or its lambda's call operator, with the body
// the rules walk.
TEST_F(DeviceCodeTest, EachKindOfRootIsFound) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int annotated(int x) { return x + 1; }
inline int helper(int x) { return x * 2; }

void launch(Pointer<int> p, std::size_t n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i] = annotated(helper(int(i)));
  });
  Task<int, Index<1>> t([=](Index<1> i) __device(hpp) { return p[i]; });
  Channel<int> c(8);
  c.executeWith(
      [=](Channel<int> *ch) -> bool __device(coord) { return ch->size() >= 4; },
      Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { p[i] = d[i]; });
}

template <typename T> void later(Pointer<T> a) {
  Task<T, Index<1>> t([=](Index<1> i) __device(hpp) { return a[i]; });
}
)cpp"));
  EXPECT_EQ(roots(),
            (Strings{"AnnotatedFunction", "ImplicitFunction", "ParallelForBody",
                     "ConsumerBody", "TaskBody", "TaskVariableBody"}));

  const DeviceRoot *Annotated = rootOf("annotated");
  ASSERT_NE(Annotated, nullptr);
  EXPECT_EQ(Annotated->Kind, DeviceRootKind::AnnotatedFunction);
  EXPECT_EQ(Annotated->Lambda, nullptr);
  EXPECT_EQ(Annotated->Body, TU->function("annotated")->getBody());
  EXPECT_EQ(extentOf(Annotated->Kind), DeviceRootExtent::Declaration);

  const DeviceRoot &Body = Map->roots()[2];
  ASSERT_NE(Body.Lambda, nullptr);
  EXPECT_EQ(Body.Function, Body.Lambda->getCallOperator());
  EXPECT_EQ(Body.Body, Body.Lambda->getBody());
  EXPECT_EQ(extentOf(Body.Kind), DeviceRootExtent::LambdaBody);

  // The coordinator is host code: no root of its own, and not inside one.
  EXPECT_FALSE(inDeviceCode("ch->size() >= 4"));
  EXPECT_TRUE(inDeviceCode("p[i] = d[i]"));
  EXPECT_TRUE(inDeviceCode("return a[i]"));
}

// A lambda written in a root is part of it, never a root of its own, with
// or without `__device(hpp)`; a root written inside another (a method of a
// local class that the body calls) is found, but not as outermost.
// Port mode: CUDA's `__global__` and `__device__` functions (and
// `__host__ __device__` ones) are the roots, whatever their place of the
// qualifier; host functions, the launch and CUDA's own functions are not.
TEST_F(DeviceCodeTest, CudaQualifiersMakeRoots) {
  ASSERT_TRUE(build(R"cpp(
__device__ int twice(int v) { return 2 * v; }
__host__ __device__ inline int both(int v) { return v + 1; }
template <int N> __global__ void kernel(int *p) {
  p[threadIdx.x] = twice(both(N));
}
static __global__ __launch_bounds__(256) void bounded(int *p) { p[0] = 7; }
int host(int v) { return v - 1; }
void launch(int *p) { kernel<4><<<1, 32>>>(p); bounded<<<1, 1>>>(p); }
)cpp",
                    /*Cuda=*/true));
  EXPECT_EQ(roots(), (Strings{"CudaFunction", "CudaFunction", "CudaFunction",
                              "CudaFunction"}));
  const DeviceRoot *Kernel = rootOf("kernel");
  ASSERT_NE(Kernel, nullptr);
  EXPECT_EQ(Kernel->Kind, DeviceRootKind::CudaFunction);
  EXPECT_EQ(extentOf(Kernel->Kind), DeviceRootExtent::Declaration);
  EXPECT_TRUE(inDeviceCode("2 * v"));
  EXPECT_TRUE(inDeviceCode("v + 1"));
  EXPECT_TRUE(inDeviceCode("p[0] = 7"));
  EXPECT_TRUE(inDeviceCode("twice(both(N))"));
  EXPECT_FALSE(inDeviceCode("v - 1"));
  EXPECT_FALSE(inDeviceCode("kernel<4>"));
  // The call graph reaches the helpers from the kernel, as annotated code.
  EXPECT_EQ(DeviceCallGraph::classify(TU->function("twice"),
                                      TU->context().getSourceManager()),
            CalleeKind::Annotated);
  EXPECT_EQ(DeviceCallGraph::classify(TU->function("host"),
                                      TU->context().getSourceManager()),
            CalleeKind::Host);
}

TEST_F(DeviceCodeTest, NestedCodeIsPartOfItsRoot) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int outer(int v) {
  auto add = [](int a, int b) __device(hpp) { return a + b; };
  return add(v, 1);
}

void launch(Pointer<int> p, std::size_t n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    auto twice = [](int x) { return x * 2; };
    struct Local {
      int get(int y) const { return y - 3; }
    };
    p[i] = twice(Local().get(int(i)));
  });
}
)cpp"));
  EXPECT_EQ(roots(), (Strings{"AnnotatedFunction", "ParallelForBody",
                              "ImplicitFunction (nested)"}));
  EXPECT_TRUE(inDeviceCode("a + b"));
  EXPECT_TRUE(inDeviceCode("x * 2"));
  EXPECT_TRUE(inDeviceCode("y - 3"));
  EXPECT_EQ(Map->rootOf(TU->lambdas()[0]->getCallOperator()), nullptr);
}

// A body's init-captures are evaluated where the lambda is written: host
// code, as the launch's range is. Its body is device code.
TEST_F(DeviceCodeTest, InitCapturesOfABodyAreHostCode) {
  ASSERT_TRUE(build(R"cpp(
void launch(Pointer<int> p, std::size_t n) {
  parallelFor(Range<1>(n + 1), [=, k = int(n) * 3](Index<1> i) __device(hpp) {
    p[i] = k + 1;
  });
}
)cpp"));
  EXPECT_EQ(roots(), (Strings{"ParallelForBody"}));
  EXPECT_FALSE(inDeviceCode("int(n) * 3"));
  EXPECT_FALSE(inDeviceCode("n + 1"));
  EXPECT_TRUE(inDeviceCode("k + 1"));
}

// A default argument is evaluated in the caller: a device function's are
// device code, on every declaration (a root is its definition, once). A
// host function's are not.
TEST_F(DeviceCodeTest, DefaultArgumentsOfADeviceFunctionAreDeviceCode) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int lanes(int w = warpSize / 2);
__device(hpp) int lanes(int w) { return w + 1; }
inline int scaled(int v, int f = warpSize * 4) { return v * f; }
int host(int v = 7 * 5) { return v; }

void launch(Pointer<int> p, std::size_t n) {
  p[0] = host();
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i] = lanes() + scaled(1);
  });
}
)cpp"));
  EXPECT_EQ(roots(), (Strings{"AnnotatedFunction", "ImplicitFunction",
                              "ParallelForBody"}));
  EXPECT_TRUE(inDeviceCode("warpSize / 2"));
  EXPECT_TRUE(inDeviceCode("warpSize * 4"));
  EXPECT_TRUE(inDeviceCode("w + 1"));
  EXPECT_FALSE(inDeviceCode("7 * 5"));
  EXPECT_FALSE(inDeviceCode("p[0] = host()"));
}

// The implicit roots are the functions device code calls without the mark
// (inline, constexpr, templates: as written, the pattern); a function only
// host code calls is host code.
TEST_F(DeviceCodeTest, ImplicitDeviceFunctionsAreTheOnesDeviceCodeCalls) {
  ASSERT_TRUE(build(R"cpp(
inline int fromDevice(int x) { return x + 2; }
inline int fromHost(int x) { return x + 3; }
template <typename T> constexpr T generic(T x) { return x * 4; }

void launch(Pointer<int> p, std::size_t n) {
  p[0] = fromHost(1) + generic(2);
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i] = fromDevice(generic(int(i)));
  });
}
)cpp"));
  EXPECT_EQ(roots(), (Strings{"ImplicitFunction", "ImplicitFunction",
                              "ParallelForBody"}));
  const DeviceRoot *Generic = rootOf("generic");
  ASSERT_NE(Generic, nullptr);
  EXPECT_EQ(Generic->Kind, DeviceRootKind::ImplicitFunction);
  EXPECT_EQ(rootOf("fromHost"), nullptr);
  EXPECT_TRUE(inDeviceCode("x + 2"));
  EXPECT_TRUE(inDeviceCode("x * 4"));
  EXPECT_FALSE(inDeviceCode("x + 3"));
}

/// Records the root each match of the rules' root matchers found.
class RootRecorder : public ast_matchers::MatchFinder::MatchCallback {
public:
  explicit RootRecorder(const DeviceCodeMap &Map) : Map(Map) {}
  void run(const ast_matchers::MatchFinder::MatchResult &R) override {
    Found.push_back(Map.root(R));
  }
  const DeviceCodeMap &Map;
  std::vector<const DeviceRoot *> Found;
};

// addDeviceRootMatchers (what a rule that walks whole bodies registers)
// finds the map's roots, in the same order, and root() tells which.
TEST_F(DeviceCodeTest, RootMatchersFindTheMapsRoots) {
  ASSERT_TRUE(build(R"cpp(
__device(hpp) int annotated(int x) { return x + 1; }
inline int helper(int x) { return x * 2; }

void launch(Pointer<int> p, std::size_t n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    struct Local {
      int get(int y) const { return y - 3; }
    };
    p[i] = annotated(helper(Local().get(int(i))));
  });
  Task<int, Index<1>> t([=](Index<1> i) __device(hpp) { return p[i]; });
}
)cpp"));
  ASSERT_EQ(Map->roots().size(), 5u);
  RootRecorder Recorder(*Map);
  ast_matchers::MatchFinder Finder;
  const DeviceCallGraph &G = *Graph;
  addDeviceRootMatchers(Finder, &Recorder,
                        [&G]() -> const DeviceCallGraph & { return G; });
  Finder.matchAST(TU->context());
  ASSERT_EQ(Recorder.Found.size(), Map->roots().size());
  for (size_t I = 0; I < Recorder.Found.size(); ++I)
    EXPECT_EQ(Recorder.Found[I], &Map->roots()[I]) << "root " << I;
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
