//===- SourcePositionRule.cpp - __LINE__ and __func__ keep their values ---===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/SourcePositionRule.h"
#include "Dialect/DialectMatchers.h"
#include "Framework/LineDirectives.h"

#include "clang/AST/Expr.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace hpp {
namespace rewrite {

namespace {

/// The value of the `__func__`-like expression bound to "fn", as a string
/// literal.
MatchConsumer<std::string> functionNameLiteral() {
  return [](const MatchFinder::MatchResult &R) -> llvm::Expected<std::string> {
    const auto *E = R.Nodes.getNodeAs<PredefinedExpr>("fn");
    std::string Out = "\"";
    for (char C : E->getFunctionName()->getString()) {
      if (C == '"' || C == '\\')
        Out += '\\';
      Out += C;
    }
    return Out + "\"";
  };
}

/// Sees each `__LINE__` the preprocessor expands outside directives.
class LineCallbacks : public PPCallbacks {
public:
  LineCallbacks(const Preprocessor &PP,
                std::function<void(SourceLocation)> Expanded)
      : PP(PP), Expanded(std::move(Expanded)) {}

  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange,
                    const MacroArgs *) override {
    if (Name.getIdentifierInfo()->getName() == "__LINE__" &&
        !PP.isParsingIfOrElifDirective())
      Expanded(Name.getLocation());
  }

private:
  const Preprocessor &PP;
  std::function<void(SourceLocation)> Expanded;
};

} // namespace

/// `__func__` & co. in a body: the enclosing function's name as a literal.
static RewriteRule functionNames() {
  return makeRule(
      predefinedExpr().bind("fn"),
      changeTo(node("fn"), transformer::run(functionNameLiteral())));
}

/// A function name spelled in a header (assert's `__PRETTY_FUNCTION__`,
/// as a header's `__LINE__`: lineExpanded) is left as written.
static bool spelledInHeader(const MatchFinder::MatchResult &R) {
  const auto *E = R.Nodes.getNodeAs<PredefinedExpr>("fn");
  const SourceManager &SM = *R.SourceManager;
  return !SM.isWrittenInMainFile(SM.getSpellingLoc(E->getBeginLoc()));
}

SourcePositionRule::SourcePositionRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(Name, Ctx,
                      {"the function name", node("fn"), spelledInHeader}) {
  RewriteRule Names = functionNames();
  addRule(applyFirst({descend(parallelForBodyStmt("body"), "body", Names),
                      descend(taskBodyStmt("body"), "body", Names),
                      descend(taskVarBodyStmt("body"), "body", Names),
                      descend(consumerBodyStmt("body"), "body", Names)}));
}

void SourcePositionRule::registerPPCallbacks() {
  Preprocessor &PP = Ctx.CI.getPreprocessor();
  PP.addPPCallbacks(std::make_unique<LineCallbacks>(
      PP, [this](SourceLocation Loc) { lineExpanded(Loc); }));
}

void SourcePositionRule::lineExpanded(SourceLocation Loc) {
  const SourceManager &SM = Ctx.CI.getSourceManager();
  SourceLocation Spelled = SM.getSpellingLoc(Loc);
  if (!SM.isWrittenInMainFile(Spelled))
    return; // A header's __LINE__ (assert, the runtime) is not ours.
  if (Loc.isMacroID()) {
    // Written in a macro body of the main file: the value is the line of
    // the macro's use, which the #line directives keep but where the
    // output's lines drift (known once they are placed: onLinesSynced).
    MacroUses.push_back(Loc);
    return;
  }
  unsigned Line = SM.getPresumedLineNumber(Loc);
  Ctx.Edits.replace(CharSourceRange::getTokenRange(Loc, Loc),
                    std::to_string(Line), Name);
}

void SourcePositionRule::onLinesSynced() {
  const SourceManager &SM = Ctx.CI.getSourceManager();
  for (SourceLocation Loc : MacroUses) {
    // Clang takes the line of the use's end (GCC's choice), the start is
    // where a warning points: either drifting changes the value.
    CharSourceRange Use = SM.getExpansionRange(Loc);
    SourceLocation Begin = Use.getBegin(), End = Use.getEnd();
    if (!SM.isWrittenInMainFile(Begin) || !SM.isWrittenInMainFile(End))
      continue;
    if (!Ctx.lines().drifts(SM.getFileOffset(Begin)) &&
        !Ctx.lines().drifts(SM.getFileOffset(End)))
      continue;
    warning(Begin, "'__LINE__' in a macro of the main file: the output "
                   "gives this line another number than the input (it "
                   "follows an edit that changed the line count before a "
                   "#line directive could go, or lies in rewritten code), "
                   "so the value changes");
  }
  MacroUses.clear();
}

} // namespace rewrite
} // namespace hpp
