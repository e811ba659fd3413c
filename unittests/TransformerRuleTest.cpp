//===- TransformerRuleTest.cpp - Failed edits of Transformer rules --------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Drives the TransformerRule adapter with a rule whose edits fail, which
/// no rule of the tool does for an input (their edits are computed from
/// nodes they match). The promise under test: an edit the adapter cannot
/// compute, or whose edits come back empty, is a located error tagged with
/// the rule, with the reason in a note, for a match of the traversal as
/// for one a descent finds; a match inside a macro's expansion is refused
/// by the macro guard, once; a match the rule leaves is neither edited nor
/// reported; the other matches are edited.
///
/// Once an error is reported the adapter edits nothing more (the guard
/// still reports), so each case is a translation unit of its own.
///
/// usage: hpp-transformer-unittests CASE   (prints the diagnostics, the
/// edits made and whether errors were reported; exit status 0 when the
/// case behaved as promised)
///   failed   in a match of the traversal, an edit that cannot be computed
///   empty    in a match of the traversal, edits that come back empty
///   descent  in a match a descent finds, an edit that cannot be computed
///   macro    matches inside a macro's expansion, at the top and in a
///            descent, whose edits would fail too: one error each
///   left     a match the rule leaves as written, beside one it edits
///
//===----------------------------------------------------------------------===//

#include "Framework/TransformerRule.h"
#include "hpp-rewrite/Diagnostics.h"
#include "hpp-rewrite/EditCollector.h"
#include "hpp-rewrite/Rule.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;
using namespace hpp::rewrite;

namespace {

/// The declarations every case starts with.
const char *const Prelude = R"cpp(void fail();
void empty();
void left();
void edited();
#define CALL_FAIL { fail(); }
)cpp";

/// A call of the function named \p Name, bound to "call".
StatementMatcher callTo(llvm::StringRef Name) {
  return callExpr(callee(functionDecl(hasName(Name)))).bind("call");
}

/// Calls the test rewrites in top() (matches of the traversal) and in
/// scope() (matches of a descent): `edited()` becomes `done()`; the edit of
/// `fail()` names a node the match does not bind; that of `empty()` is
/// none; `left()` is left as written on purpose.
class TestRule : public TransformerRule {
public:
  explicit TestRule(RuleContext &Ctx)
      : TransformerRule("hpp-test", Ctx, {"the call", node("call"), isLeft}) {
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
  static bool isLeft(const MatchFinder::MatchResult &R) {
    const auto *Call = R.Nodes.getNodeAs<CallExpr>("call");
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    return Callee && Callee->getName() == "left";
  }
};

/// Runs TestRule over the translation unit, as the driver runs rules.
class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, bool &Errors) : CI(CI), Errors(Errors) {}

  void HandleTranslationUnit(ASTContext &AST) override {
    RuleDiagnostics Diags(CI.getDiagnostics());
    EditCollector Edits(CI.getSourceManager(), Diags);
    RuleContext Ctx(CI, Diags, Edits);
    TestRule Rule(Ctx);
    MatchFinder Finder;
    Rule.registerMatchers(Finder);
    Finder.matchAST(AST);
    Rule.onEndOfTranslationUnit(AST);
    llvm::errs().flush();
    for (const EditRecord &E : Edits.records())
      llvm::outs() << "edit " << E.Rule << " " << E.Line << ":" << E.Column
                   << " -> '" << E.Text << "'\n";
    Errors = Diags.hasErrors();
    llvm::outs() << "errors: " << (Errors ? "yes" : "no") << "\n";
    llvm::outs().flush();
  }

private:
  CompilerInstance &CI;
  bool &Errors;
};

class Action : public ASTFrontendAction {
public:
  explicit Action(bool &Errors) : Errors(Errors) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>(CI, Errors);
  }

private:
  bool &Errors;
};

} // namespace

int main(int argc, char **argv) {
  const std::string Case = argc > 1 ? argv[1] : "";
  const char *Body = nullptr;
  bool ExpectErrors = true;
  if (Case == "failed")
    Body = "void top() { edited(); fail(); }\n";
  else if (Case == "empty")
    Body = "void top() { empty(); }\n";
  else if (Case == "descent")
    Body = "void scope() { edited(); fail(); }\n";
  else if (Case == "macro")
    Body = "void top() { CALL_FAIL }\nvoid scope() { CALL_FAIL }\n";
  else if (Case == "left") {
    Body = "void top() { left(); edited(); }\n";
    ExpectErrors = false;
  }
  if (!Body) {
    llvm::errs()
        << "usage: hpp-transformer-unittests failed|empty|descent|macro|left\n";
    return 2;
  }
  bool Errors = false;
  tooling::runToolOnCodeWithArgs(std::make_unique<Action>(Errors),
                                 std::string(Prelude) + Body, {"-fsyntax-only"},
                                 "/unit/input.cpp");
  return Errors == ExpectErrors ? 0 : 1;
}
