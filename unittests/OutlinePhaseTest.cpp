//===- OutlinePhaseTest.cpp - The driver's outlining phase ----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of the outlining phase (lib/Outline/OutlinePhase.h) and the kernel
/// sites it outlines (lib/Outline/KernelSites.h). The driver runs the phase
/// after every rule's end of the translation unit; the order is held in
/// code, which these tests show: a site added once the phase has started is
/// refused with an internal error (and not outlined), and the phase refuses
/// to run a second time. Each kind of request (a parallelFor body, a Task
/// body, a Channel consumer) outlines a small snippet, found by the
/// matchers the rules use (Dialect/DialectMatchers.h); the kernels are
/// named in source order, uniquely across the kinds.
///
//===----------------------------------------------------------------------===//

#include "Outline/OutlinePhase.h"
#include "AnalysisTestSupport.h"
#include "Dialect/DialectMatchers.h"

#include "hpp-rewrite/Diagnostics.h"
#include "hpp-rewrite/EditCollector.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include "gtest/gtest.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

/// A function with one construct of each kind, in this order: a Task, a
/// parallelFor, a Channel consumer.
const char *const ThreeKinds = R"cpp(
void f(Pointer<float> a, float k, std::size_t n) {
  Task<float, Index<1>> t([=](Index<1> i) __device(hpp) { return a[i] * k; });
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { a[i] *= k; });
  Channel<int> c(64);
  c.executeWith(
      [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 8; },
      Range<1>(8), [=](Index<1> i, std::vector<int> data) __device(hpp) {
        a[i.getX()] = data[i.getX()];
      });
}
)cpp";

/// The tag the tests' sites and kernels are filed under.
constexpr llvm::StringLiteral Tag = "hpp-test";

class OutlinePhaseTest : public ::testing::Test {
protected:
  /// Parses \p Code (after the dialect's prelude) and starts the sites and
  /// the phase on it, as the driver does; false (and a failure) when it
  /// does not parse.
  bool parse(llvm::StringRef Code) {
    Phase.reset();
    Sites.reset();
    Edits.reset();
    Diags.reset();
    TU = ParsedSource::parseDialect(Code);
    if (!parsed(*TU))
      return false;
    Diags = std::make_unique<RuleDiagnostics>(TU->diagnosticsEngine());
    Edits = std::make_unique<EditCollector>(TU->sourceManager(), *Diags);
    Sites = std::make_unique<KernelSites>(*Diags);
    Phase = std::make_unique<OutlinePhase>(TU->preprocessor(), *Edits, *Diags,
                                           TU->lines());
    return true;
  }

  /// The first site \p M finds (its construct bound to \p SiteID, its
  /// lambda to "lambda"), of kind \p Kind; its Expr is null when none.
  KernelSites::Site find(const ast_matchers::StatementMatcher &M,
                         llvm::StringRef SiteID, KernelKind Kind) {
    KernelSites::Site S{Kind, nullptr, nullptr, QualType(), Tag};
    for (const ast_matchers::BoundNodes &N :
         ast_matchers::match(M, TU->context())) {
      S.Expr = N.getNodeAs<Expr>(SiteID);
      S.Lambda = N.getNodeAs<LambdaExpr>("lambda");
      if (S.Expr && S.Lambda)
        break;
    }
    if (S.Expr)
      S.TaskType = S.Expr->getType();
    else
      ADD_FAILURE() << "no site of the matcher in the snippet";
    return S;
  }
  KernelSites::Site parallelFor() {
    return find(parallelForCall(), "call", KernelKind::ParallelFor);
  }
  KernelSites::Site task() {
    return find(taskConstruction(), "task", KernelKind::Task);
  }
  KernelSites::Site consumer() {
    return find(channelExecuteWith(), "execute", KernelKind::Consumer);
  }

  /// Runs the phase as the driver does.
  bool run() { return Phase->run(*Sites, TU->context(), Tag); }

  /// The main file with the edits made so far.
  std::string output() { return Edits->applyToMainFile().value_or(""); }

  std::unique_ptr<ParsedSource> TU;
  std::unique_ptr<RuleDiagnostics> Diags;
  std::unique_ptr<EditCollector> Edits;
  std::unique_ptr<KernelSites> Sites;
  std::unique_ptr<OutlinePhase> Phase;
};

TEST_F(OutlinePhaseTest, SiteAddedAfterThePhaseStartedIsRefused) {
  ASSERT_TRUE(parse(ThreeKinds));
  EXPECT_TRUE(Sites->add(parallelFor()));
  EXPECT_FALSE(Sites->closed());
  EXPECT_TRUE(run());
  EXPECT_TRUE(Sites->closed());
  EXPECT_FALSE(Diags->hasErrors()) << TU->diagnostics();
  EXPECT_EQ(Phase->outlined(), 1u);

  // The Task, found too late: refused at its construction, under its
  // rule's tag, and never outlined.
  KernelSites::Site Late = task();
  EXPECT_FALSE(Sites->add(Late));
  EXPECT_TRUE(Diags->hasErrors());
  EXPECT_NE(TU->diagnostics().find(
                "/unit/input.cpp:" + TU->lineColumn(Late.Expr->getBeginLoc()) +
                ": error: internal error: this Task was collected after the "
                "kernels were outlined, and is not outlined; the file is not "
                "rewritten (please report this, with the input) [hpp-test]"),
            std::string::npos)
      << TU->diagnostics();
  EXPECT_EQ(Phase->outlined(), 1u);
  EXPECT_EQ(output().find("hpp_f_task0"), std::string::npos);
}

TEST_F(OutlinePhaseTest, PhaseRunsOnce) {
  ASSERT_TRUE(parse(ThreeKinds));
  EXPECT_TRUE(Sites->add(parallelFor()));
  EXPECT_TRUE(run());
  EXPECT_FALSE(Diags->hasErrors()) << TU->diagnostics();
  EXPECT_FALSE(run());
  EXPECT_TRUE(Diags->hasErrors());
  EXPECT_NE(TU->diagnostics().find(
                "error: internal error: the kernels were outlined twice; the "
                "file is not rewritten (please report this, with the input) "
                "[hpp-test]"),
            std::string::npos)
      << TU->diagnostics();
  // The kernel was outlined once.
  EXPECT_EQ(Phase->outlined(), 1u);
}

TEST_F(OutlinePhaseTest, OutlinesAParallelForBody) {
  ASSERT_TRUE(parse(ThreeKinds));
  Sites->add(parallelFor());
  ASSERT_TRUE(run());
  EXPECT_FALSE(Diags->hasErrors()) << TU->diagnostics();
  EXPECT_EQ(Phase->outlined(), 1u);
  const std::string Out = output();
  // The captures as parameters, the index from the range, the body behind
  // its `#line` directive; `parallelFor(` and the lambda become the launch.
  EXPECT_NE(
      Out.find("/// Outlined by hpp-rewrite from the parallelFor at "
               "input.cpp:6:3.\n"
               "__global__ void hpp_f_pfor0(hpp::Range<1> hpp_range,\n"
               "                            const hpp::Pointer<float> a, "
               "const float k) {\n"
               "  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);\n"
               "  if (!i.inGlobalRange())\n"
               "    return;\n"
               "#line 6 \"/unit/input.cpp\"\n"
               "  { a[i] *= k; }\n"
               "}\n\n"
               "void f("),
      std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  hpp::launchKernel(hpp_f_pfor0, Range<1>(n), a, k);\n"),
            std::string::npos)
      << Out;
}

TEST_F(OutlinePhaseTest, OutlinesATaskBody) {
  ASSERT_TRUE(parse(ThreeKinds));
  Sites->add(task());
  ASSERT_TRUE(run());
  EXPECT_FALSE(Diags->hasErrors()) << TU->diagnostics();
  const std::string Out = output();
  // The result parameter, the guard, the index from the work-item's
  // fields, and the value stored.
  EXPECT_NE(
      Out.find("__global__ void hpp_f_task0(hpp::Range<1, 1> hpp_range,\n"
               "                            hpp::detail::TaskResult<float>"
               " hpp_result,\n"),
      std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  if (!hpp_result.runs())\n    return;\n"
                     "  hpp::Index<1> i(hpp::detail::kernelIndex(hpp_range)"
                     ".fields());\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  hpp_result.store(i, [&]() -> float { return a[i] * k; "
                     "}());\n}\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("t(hpp::detail::taskKernel(hpp_f_task0, a, k));"),
            std::string::npos)
      << Out;
}

TEST_F(OutlinePhaseTest, OutlinesAChannelConsumer) {
  ASSERT_TRUE(parse(ThreeKinds));
  Sites->add(consumer());
  ASSERT_TRUE(run());
  EXPECT_FALSE(Diags->hasErrors()) << TU->diagnostics();
  const std::string Out = output();
  // The batch parameter, the guard, and the data parameter bound to the
  // batch's elements.
  EXPECT_NE(Out.find("hpp::detail::ChannelBatch<int> hpp_batch"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  if (!hpp_batch.ready())\n    return;\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  hpp::Span<int> data = hpp_batch.span();\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("hpp::detail::consumerKernel(hpp_f_consumer0, a))"),
            std::string::npos)
      << Out;
}

TEST_F(OutlinePhaseTest, KernelsAreNamedAndInsertedInSourceOrder) {
  ASSERT_TRUE(parse(ThreeKinds));
  // Added out of order, as the rules' matchers may find them.
  Sites->add(consumer());
  Sites->add(parallelFor());
  Sites->add(task());
  ASSERT_TRUE(run());
  EXPECT_FALSE(Diags->hasErrors()) << TU->diagnostics();
  EXPECT_EQ(Phase->outlined(), 3u);
  const std::string Out = output();
  const size_t Task = Out.find("__global__ void hpp_f_task0(");
  const size_t For = Out.find("__global__ void hpp_f_pfor0(");
  const size_t Consumer = Out.find("__global__ void hpp_f_consumer0(");
  ASSERT_NE(Task, std::string::npos) << Out;
  ASSERT_NE(For, std::string::npos) << Out;
  ASSERT_NE(Consumer, std::string::npos) << Out;
  EXPECT_LT(Task, For);
  EXPECT_LT(For, Consumer);
  EXPECT_LT(Consumer, Out.find("void f("));
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
