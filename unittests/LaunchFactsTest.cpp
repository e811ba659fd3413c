//===- LaunchFactsTest.cpp - 32-lane facts of a kernel's launches ---------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of launchFacts and hostWarpSizeReads (lib/Analysis/LaunchFacts.h)
/// where the value comes through a function's parameters: a block size
/// evaluated at the launcher's calls (HostValues.h, HostCalls.h), an
/// unknown block where a call may not be seen, and a read of the device's
/// warp size passed to a function that launches.
///
//===----------------------------------------------------------------------===//

#include "Analysis/LaunchFacts.h"
#include "AnalysisTestSupport.h"

#include "gtest/gtest.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

class LaunchFactsTest : public ::testing::Test {
protected:
  /// The facts of the one launch of \p Code's kernel `k`.
  LaunchFact launch(llvm::StringRef Code) {
    TU = ParsedSource::parseCuda(std::string(Kernel) + Code.str());
    if (!parsed(*TU))
      return {};
    std::vector<LaunchFact> Facts = launchFacts(TU->context());
    EXPECT_EQ(Facts.size(), 1u);
    return Facts.empty() ? LaunchFact{} : Facts.front();
  }
  /// The reads of the device's warp size in \p Fn of \p Code.
  std::vector<HostWarpSizeRead> reads(llvm::StringRef Code,
                                      llvm::StringRef Fn) {
    TU = ParsedSource::parseCuda(std::string(Kernel) + Code.str());
    if (!parsed(*TU))
      return {};
    const FunctionDecl *FD = TU->function(Fn);
    EXPECT_TRUE(FD);
    return FD ? hostWarpSizeReads(FD->getDefinition(), TU->context())
              : std::vector<HostWarpSizeRead>();
  }

  static constexpr llvm::StringLiteral Kernel =
      "__global__ void k(int *o) { o[threadIdx.x] = warpSize; }\n";
  std::unique_ptr<ParsedSource> TU;
};

TEST_F(LaunchFactsTest, BlockOfACallersArgument) {
  LaunchFact L = launch(R"(
    static void run(int *o, int t) { k<<<1, t>>>(o); }
    int main() { run(nullptr, 256); run(nullptr, 96); })");
  EXPECT_FALSE(L.UnknownBlock);
  EXPECT_NE(L.Block.What.find("a block of 96 threads"), std::string::npos);
  EXPECT_NE(L.Block.What.find("passed to 'run' here"), std::string::npos);
}

TEST_F(LaunchFactsTest, ThroughAnotherLauncherAndADefault) {
  LaunchFact L = launch(R"(
    static void run(int *o, int t) { k<<<1, t>>>(o); }
    static void outer(int *o, int t = 160) { run(o, t); }
    int main() { outer(nullptr); })");
  EXPECT_NE(L.Block.What.find("a block of 160 threads"), std::string::npos);
  EXPECT_NE(
      L.Block.What.find(
          "passed to 'outer' as its default argument here and on to 'run'"),
      std::string::npos);
}

TEST_F(LaunchFactsTest, EveryCallSeenAndWhole) {
  LaunchFact L = launch(R"(
    static void run(int *o, dim3 b) { k<<<1, b>>>(o); }
    int main() { run(nullptr, 128); run(nullptr, dim3(64, 4)); })");
  EXPECT_FALSE(L.UnknownBlock);
  EXPECT_FALSE(L.Block.Loc.isValid());
}

TEST_F(LaunchFactsTest, ExternalLinkageIsUnknownPart) {
  LaunchFact L = launch(R"(
    void run(int *o, int t) { k<<<1, t>>>(o); }
    int main() { run(nullptr, 128); })");
  EXPECT_TRUE(L.UnknownBlock);
  EXPECT_NE(L.UnknownWhy.What.find("'run' has external linkage"),
            std::string::npos);
}

TEST_F(LaunchFactsTest, AddressTakenIsUnknownPart) {
  LaunchFact L = launch(R"(
    static void run(int *o, int t) { k<<<1, t>>>(o); }
    int main() { void (*f)(int *, int) = run; f(nullptr, 96); })");
  EXPECT_TRUE(L.UnknownBlock);
  EXPECT_NE(L.UnknownWhy.What.find("the address of 'run' is taken"),
            std::string::npos);
}

TEST_F(LaunchFactsTest, LambdaLauncher) {
  LaunchFact L = launch(R"(
    int main() {
      int *o = nullptr;
      auto run = [&](int t) { k<<<1, t>>>(o); };
      run(64);
    })");
  EXPECT_NE(L.Block.What.find("a block of 64 threads"), std::string::npos);
  EXPECT_NE(L.Block.What.find("passed to the lambda 'run' here"),
            std::string::npos);
}

TEST_F(LaunchFactsTest, WrittenParameterIsUnknown) {
  LaunchFact L = launch(R"(
    static void run(int *o, int t) { t += 32; k<<<1, t>>>(o); }
    int main() { run(nullptr, 64); })");
  EXPECT_TRUE(L.UnknownBlock);
  EXPECT_FALSE(L.Block.Loc.isValid());
}

TEST_F(LaunchFactsTest, WarpSizeReadPassedToALauncher) {
  std::vector<HostWarpSizeRead> R = reads(R"(
    static void launchAll(int *o, int w) { k<<<1, 96, 96 / w>>>(o); }
    int main() {
      cudaDeviceProp prop;
      cudaGetDeviceProperties(&prop, 0);
      launchAll(nullptr, prop.warpSize);
    })",
                                          "main");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Launches.size(), 1u);
  EXPECT_FALSE(R[0].Unfollowed);
}

TEST_F(LaunchFactsTest, WarpSizeReadThroughAPointerIsUnfollowed) {
  std::vector<HostWarpSizeRead> R = reads(R"(
    static void launchAll(int *o, int w) { k<<<1, 96, 96 / w>>>(o); }
    int main() {
      cudaDeviceProp prop;
      cudaGetDeviceProperties(&prop, 0);
      void (*f)(int *, int) = launchAll;
      f(nullptr, prop.warpSize);
    })",
                                          "main");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Launches.empty());
  EXPECT_TRUE(R[0].Unfollowed);
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
