//===- TransformerRuleTest.cpp - Failed edits of Transformer rules --------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of the Transformer adapter (lib/Framework/TransformerRule.h) with
/// a rule whose edits fail, which no rule of the tool does for an input
/// (their edits are computed from the nodes they match). The promise under
/// test: an edit the adapter cannot compute, or whose edits come back
/// empty, is a located error tagged with the rule, with the reason in a
/// note, for a match of the traversal as for one a descent finds; a match
/// inside a macro's expansion is refused by the macro guard, once; a match
/// the rule leaves is neither edited nor reported; the other matches are
/// edited.
///
/// Once an error is reported the adapter edits nothing more (the guard
/// still reports), so each test parses a snippet of its own: the
/// declarations every case starts with (lines 1-5), then its functions
/// (from line 6).
///
//===----------------------------------------------------------------------===//

#include "Framework/TransformerRule.h"
#include "AnalysisTestSupport.h"

#include "hpp-rewrite/Diagnostics.h"
#include "hpp-rewrite/EditCollector.h"
#include "hpp-rewrite/Rule.h"

#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/Support/Regex.h"

#include "gtest/gtest.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

/// The declarations every case starts with, lines 1-5 of its snippet.
const char *const CaseDeclarations = R"cpp(void fail();
void empty();
void left();
void edited();
#define CALL_FAIL { fail(); }
)cpp";

/// A call of the function named \p Name, bound to "call".
ast_matchers::StatementMatcher callTo(llvm::StringRef Name) {
  using namespace ast_matchers;
  return callExpr(callee(functionDecl(hasName(Name)))).bind("call");
}

/// Calls the test rewrites in top() (matches of the traversal) and in
/// scope() (matches of a descent): `edited()` becomes `done()`; the edit of
/// `fail()` names a node the match does not bind; that of `empty()` is
/// none; `left()` is left as written on purpose.
class FailingEditsRule : public TransformerRule {
public:
  explicit FailingEditsRule(RuleContext &Ctx)
      : TransformerRule("hpp-test", Ctx,
                        {"the call", transformer::node("call"), isLeft}) {
    using namespace ast_matchers;
    using namespace transformer;
    // In top(), matches of the traversal.
    auto InTop = hasAncestor(functionDecl(hasName("top")));
    addRule(
        applyFirst({makeRule(callExpr(callTo("fail"), InTop),
                             changeTo(node("unbound"), cat("x"))),
                    makeRule(callExpr(callTo("empty"), InTop),
                             [](const MatchFinder::MatchResult &)
                                 -> llvm::Expected<llvm::SmallVector<Edit, 1>> {
                               return llvm::SmallVector<Edit, 1>();
                             }),
                    makeRule(callExpr(callTo("left"), InTop),
                             changeTo(node("call"), cat("gone()"))),
                    makeRule(callExpr(callTo("edited"), InTop),
                             changeTo(node("call"), cat("done()")))}));
    // In scope(), matches a descent finds.
    addRule(descend(
        functionDecl(hasName("scope")).bind("fn"), "fn",
        applyFirst(
            {makeRule(callTo("fail"), changeTo(node("unbound"), cat("x"))),
             makeRule(callTo("edited"),
                      changeTo(node("call"), cat("done()")))})));
  }

private:
  static bool isLeft(const ast_matchers::MatchFinder::MatchResult &R) {
    const auto *Call = R.Nodes.getNodeAs<CallExpr>("call");
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    return Callee && Callee->getName() == "left";
  }
};

/// The first line clang prints of a diagnostic of \p Level at \p Where
/// ("line:column") of the snippet.
std::string diagnostic(llvm::StringRef Where, llvm::StringRef Level,
                       llvm::StringRef Text) {
  return (MainFile + ":" + Where + ": " + Level + ": " + Text).str();
}

/// The error of an edit the adapter cannot compute.
const char *const InternalError =
    "internal error: cannot compute the rewrite of the call; the file is not "
    "rewritten (please report this, with the input) [hpp-test]";
/// Its note starts so, and ends with the error of the range selector (in
/// between: the text of an errc, which the C library words).
const char *const FailedNoteStart = "the edit failed: ";
const char *const FailedNoteEnd = "ID not bound: unbound";
/// The error of a match inside CALL_FAIL, and its note at line 5.
const char *const MacroError =
    "cannot rewrite the call 'fail': it is spelled inside the macro "
    "'CALL_FAIL'; expand the macro here by hand [hpp-test]";

class TransformerRuleTest : public ::testing::Test {
protected:
  /// Parses CaseDeclarations, then \p Functions, and runs the rule over
  /// them as the driver runs rules; false (and a failure) when the snippet
  /// does not parse.
  bool run(llvm::StringRef Functions) {
    Ctx.reset();
    Edits.reset();
    Diags.reset();
    TU = ParsedSource::parse((CaseDeclarations + Functions).str());
    if (!parsed(*TU))
      return false;
    Diags = std::make_unique<RuleDiagnostics>(TU->diagnosticsEngine());
    Edits = std::make_unique<EditCollector>(TU->sourceManager(), *Diags);
    Ctx = std::make_unique<RuleContext>(TU->compiler(), *Diags, *Edits);
    FailingEditsRule Tested(*Ctx);
    ast_matchers::MatchFinder Finder;
    Tested.registerMatchers(Finder);
    Finder.matchAST(TU->context());
    Tested.onEndOfTranslationUnit(TU->context());
    return true;
  }

  /// The diagnostics printed, the first line of each ("file:line:col:
  /// level: message"; not the source lines and carets after it), in order.
  std::vector<std::string> diagnostics() const {
    llvm::Regex First("^([^ ]+: )?(fatal error|error|warning|note|remark): ");
    llvm::SmallVector<llvm::StringRef> Lines;
    const std::string Printed = TU->diagnostics();
    llvm::StringRef(Printed).split(Lines, '\n');
    std::vector<std::string> Out;
    for (llvm::StringRef L : Lines)
      if (First.match(L))
        Out.push_back(L.str());
    return Out;
  }

  /// The edits recorded, in order, each as "rule line:col -> 'text'".
  std::vector<std::string> edits() const {
    std::vector<std::string> Out;
    for (const EditRecord &E : Edits->records())
      Out.push_back(E.Rule + " " + std::to_string(E.Line) + ":" +
                    std::to_string(E.Column) + " -> '" + E.Text + "'");
    return Out;
  }

  /// Expects \p Line to be the note of a failed edit at \p Where.
  static void expectFailedNote(const std::string &Line, llvm::StringRef Where) {
    llvm::StringRef L(Line);
    EXPECT_TRUE(L.starts_with(diagnostic(Where, "note", FailedNoteStart)))
        << Line;
    EXPECT_TRUE(L.ends_with(FailedNoteEnd)) << Line;
  }

  std::unique_ptr<ParsedSource> TU;
  std::unique_ptr<RuleDiagnostics> Diags;
  std::unique_ptr<EditCollector> Edits;
  std::unique_ptr<RuleContext> Ctx;
};

// In a match of the traversal, an edit that cannot be computed: an error at
// the match, the reason in a note. The match before it is edited; nothing
// after the error is.
TEST_F(TransformerRuleTest, FailedEditIsReported) {
  ASSERT_TRUE(run("void top() { edited(); fail(); }\n"));
  const std::vector<std::string> Printed = diagnostics();
  ASSERT_EQ(Printed.size(), 2u) << TU->diagnostics();
  EXPECT_EQ(Printed[0], diagnostic("6:24", "error", InternalError));
  expectFailedNote(Printed[1], "6:24");
  EXPECT_EQ(edits(), std::vector<std::string>{"hpp-test 6:14 -> 'done()'"});
  EXPECT_TRUE(Diags->hasErrors());
}

// In a match of the traversal, edits that come back empty (Transformer
// drops an edit it cannot map to the file, without a word): an error at the
// match, with the reason in a note; nothing is edited.
TEST_F(TransformerRuleTest, EmptyEditsAreReported) {
  ASSERT_TRUE(run("void top() { empty(); }\n"));
  EXPECT_EQ(
      diagnostics(),
      (std::vector<std::string>{
          diagnostic("6:14", "error",
                     "cannot rewrite the call: an edit it needs falls where "
                     "the tool cannot edit, and the code would stay as "
                     "written [hpp-test]"),
          diagnostic("6:14", "note",
                     "an edit of the rewrite touches text that a macro's "
                     "expansion writes (expand the macro here by hand), text "
                     "of a system header, or more than one file")}))
      << TU->diagnostics();
  EXPECT_EQ(edits(), std::vector<std::string>());
  EXPECT_TRUE(Diags->hasErrors());
}

// In a match a descent finds, an edit that cannot be computed: reported as
// for a match of the traversal, at the match.
TEST_F(TransformerRuleTest, FailedEditInADescentIsReported) {
  ASSERT_TRUE(run("void scope() { edited(); fail(); }\n"));
  const std::vector<std::string> Printed = diagnostics();
  ASSERT_EQ(Printed.size(), 2u) << TU->diagnostics();
  EXPECT_EQ(Printed[0], diagnostic("6:26", "error", InternalError));
  expectFailedNote(Printed[1], "6:26");
  EXPECT_EQ(edits(), std::vector<std::string>{"hpp-test 6:16 -> 'done()'"});
  EXPECT_TRUE(Diags->hasErrors());
}

// Matches inside a macro's expansion, at the top and in a descent, whose
// edits would fail too: the macro guard refuses each, once, at the macro's
// use, with a note where the macro spells it; the failed edit is not
// reported as well, and nothing is edited.
TEST_F(TransformerRuleTest, MacroGuardRefusesEachMatchOnce) {
  ASSERT_TRUE(run("void top() { CALL_FAIL }\n"
                  "void scope() { CALL_FAIL }\n"));
  EXPECT_EQ(diagnostics(), (std::vector<std::string>{
                               diagnostic("6:14", "error", MacroError),
                               diagnostic("5:21", "note", "spelled here"),
                               diagnostic("7:16", "error", MacroError),
                               diagnostic("5:21", "note", "spelled here")}))
      << TU->diagnostics();
  EXPECT_EQ(edits(), std::vector<std::string>());
  EXPECT_TRUE(Diags->hasErrors());
}

// A match the rule leaves as written on purpose (Guard::Leave), beside one
// it edits: neither edited nor reported; the other is edited.
TEST_F(TransformerRuleTest, LeftMatchIsNeitherEditedNorReported) {
  ASSERT_TRUE(run("void top() { left(); edited(); }\n"));
  EXPECT_EQ(diagnostics(), std::vector<std::string>()) << TU->diagnostics();
  EXPECT_EQ(edits(), std::vector<std::string>{"hpp-test 6:22 -> 'done()'"});
  EXPECT_FALSE(Diags->hasErrors());
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
