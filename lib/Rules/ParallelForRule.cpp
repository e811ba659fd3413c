//===- ParallelForRule.cpp - Outline parallelFor into kernels -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/ParallelForRule.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/DialectMatchers.h"
#include "Framework/RewriteScope.h"
#include "Outline/KernelSites.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void ParallelForRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(parallelForCall(), this);
  // `using hpp::parallelFor;` names nothing once every call is a launch.
  Finder.addMatcher(usingDecl(hasAnyUsingShadowDecl(hasTargetDecl(
                                  namedDecl(hasName("::hpp::parallelFor")))),
                              isExpansionInRewrittenFile())
                        .bind("using"),
                    this);
}

void ParallelForRule::removeUsing(const UsingDecl *UD, const SourceManager &SM,
                                  const LangOptions &LO) {
  SourceRange R = UD->getSourceRange();
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return; // Never edit inside a macro; the output then fails to compile
            // at that line, as any unrewritable use would.
  SourceLocation End = Lexer::findLocationAfterToken(
      R.getEnd(), tok::semi, SM, LO, /*SkipTrailingWhitespaceAndNewLine=*/true);
  if (End.isInvalid())
    return;
  Ctx.Edits.replace(CharSourceRange::getCharRange(R.getBegin(), End), "", Name);
}

void ParallelForRule::run(const MatchFinder::MatchResult &R) {
  if (const auto *UD = R.Nodes.getNodeAs<UsingDecl>("using")) {
    removeUsing(UD, *R.SourceManager, R.Context->getLangOpts());
    return;
  }
  const auto *Call = R.Nodes.getNodeAs<CallExpr>("call");
  const auto *LE = R.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (!Seen.insert(Call).second)
    return;
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
  // GPUs launch kernels from the host: HIP has no device-side launch.
  if (isInsideDeviceFunction(LE)) {
    error(Call->getBeginLoc(),
          "a parallelFor inside device code cannot be rewritten: kernels "
          "are launched from the host (HIP has no launch from device "
          "code); move it to host code, or run its work in this body's "
          "loop");
    return;
  }
  if (LE->getBeginLoc().isMacroID() || LE->getEndLoc().isMacroID()) {
    error(R.SourceManager->getExpansionLoc(LE->getBeginLoc()),
          "cannot outline a parallelFor body written through a macro; write "
          "the lambda in the call");
    return;
  }
  Ctx.kernelSites().add({KernelKind::ParallelFor, Call, LE, QualType(), Name});
}

} // namespace rewrite
} // namespace hpp
