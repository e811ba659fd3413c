//===- ParallelForRule.cpp - Outline parallelFor into kernels -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/ParallelForRule.h"
#include "Core/DialectMatchers.h"
#include "Core/KernelOutliner.h"

#include "clang/AST/DeclCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void ParallelForRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(parallelForCall(), this);
}

std::string ParallelForRule::kernelName(const FunctionDecl *F) {
  std::string Base = "hpp_";
  if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(F))
    Base += M->getParent()->getNameAsString() + "_";
  Base += F ? F->getNameAsString() : "global";
  for (char &C : Base)
    if (!isalnum(static_cast<unsigned char>(C)) && C != '_')
      C = '_';
  Base += "_pfor" + std::to_string(PerFunction[F]++);
  std::string Name = Base;
  for (unsigned I = 1; !UsedNames.insert(Name).second; ++I)
    Name = Base + "_" + std::to_string(I); // Overloads share a name.
  return Name;
}

void ParallelForRule::run(const MatchFinder::MatchResult &R) {
  const auto *Call = R.Nodes.getNodeAs<CallExpr>("call");
  const auto *LE = R.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID()) {
    error(R.SourceManager->getExpansionLoc(Call->getBeginLoc()),
          "cannot rewrite a parallelFor written through a macro; expand the "
          "macro at this call by hand");
    return;
  }
  if (!LE) {
    error(Call->getBeginLoc(),
          "the body of parallelFor must be a lambda expression written in "
          "the call");
    return;
  }
  Sites.push_back(
      {Call, LE, kernelName(KernelOutliner::enclosingFunction(LE))});
}

void ParallelForRule::onEndOfTranslationUnit(ASTContext &AST) {
  // Runs even after other errors, so that every problem is reported at
  // once; nothing is written when there are errors anyway.
  KernelOutliner Outliner(AST);
  std::map<unsigned, std::pair<SourceLocation, std::string>> Inserts;
  const SourceManager &SM = AST.getSourceManager();
  for (const Site &S : Sites) {
    auto BodyRange = CharSourceRange::getTokenRange(
        S.Lambda->getCompoundStmtBody()->getSourceRange());
    tooling::Replacements BodyEdits = Ctx.Edits.extract(BodyRange);
    OutlineError Err;
    std::optional<OutlinedKernel> K =
        Outliner.outline(S.Call, S.Lambda, S.KernelName, BodyEdits, Err);
    if (!K) {
      if (Err.Loc.isValid())
        error(Err.Loc, Err.Message);
      continue;
    }
    if (!Ctx.Edits.replace(
            CharSourceRange::getTokenRange(S.Call->getSourceRange()), K->Launch,
            Name))
      continue;
    auto &Slot = Inserts[SM.getFileOffset(K->InsertAt)];
    Slot.first = K->InsertAt;
    Slot.second += K->Definition;
  }
  for (auto &[Offset, Insert] : Inserts)
    Ctx.Edits.insert(Insert.first, Insert.second, Name);
}

} // namespace rewrite
} // namespace hpp
