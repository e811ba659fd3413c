//===- DeviceRewrite.cpp - Rules applied to device code -------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Core/DeviceRewrite.h"
#include "Core/WidthModel.h"

#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/SourceCode.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void UneditableInDeviceCode::run(const MatchFinder::MatchResult &R) {
  const auto *E = R.Nodes.getNodeAs<Expr>(ID);
  if (!E || !E->getBeginLoc().isMacroID())
    return;
  const SourceManager &SM = *R.SourceManager;
  SourceLocation At = SM.getExpansionLoc(E->getBeginLoc());
  if (!SM.isWrittenInMainFile(At) || !Ctx.widthModel().inDeviceCode(At))
    return;
  if (tooling::getFileRangeForEdit(
          CharSourceRange::getTokenRange(E->getSourceRange()), *R.Context))
    return;
  const LangOptions &LO = R.Context->getLangOpts();
  SourceLocation Spelled = SM.getSpellingLoc(E->getBeginLoc());
  StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(Spelled, Spelled), SM, LO);
  StringRef Macro = Lexer::getImmediateMacroName(E->getBeginLoc(), SM, LO);
  Ctx.Diags.error(At, Rule,
                  ("cannot rewrite " + What + " '" + Text +
                   "': it is spelled inside the macro '" + Macro +
                   "'; expand the macro here by hand")
                      .str());
  Ctx.Diags.note(Spelled, "spelled here");
}

} // namespace rewrite
} // namespace hpp
