//===- ParallelForRule.cpp - Outline parallelFor into kernels -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/ParallelForRule.h"
#include "Core/DeviceCode.h"
#include "Core/DialectMatchers.h"
#include "Core/KernelOutliner.h"

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
                              isExpansionInMainFile())
                        .bind("using"),
                    this);
}

void ParallelForRule::registerPPCallbacks() {
  Conditionals = ConditionalBlocks::record(Ctx.CI.getPreprocessor());
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
  for (const DeclContext *DC = LE->getLambdaClass()->getDeclContext(); DC;
       DC = DC->getParent())
    if (const auto *FD = dyn_cast<FunctionDecl>(DC);
        FD && getDeviceAnnotation(FD)) {
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
  Sites.push_back({Call, LE, KernelOutliner::enclosingFunction(LE)});
}

void ParallelForRule::onEndOfTranslationUnit(ASTContext &AST) {
  // Runs even after other errors, so that every problem is reported at
  // once; nothing is written when there are errors anyway.
  KernelOutliner Outliner(AST);
  std::map<unsigned, std::pair<SourceLocation, std::string>> Inserts,
      AfterClass;
  const SourceManager &SM = AST.getSourceManager();
  // Kernels are numbered, and emitted, in source order (the matchers
  // reach calls in loops and lambdas after the others).
  llvm::stable_sort(Sites, [&](const Site &A, const Site &B) {
    return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(),
                                        B.Call->getBeginLoc());
  });
  for (const Site &S : Sites) {
    const std::string KernelName = kernelName(S.Enclosing);
    auto BodyRange = CharSourceRange::getTokenRange(
        S.Lambda->getCompoundStmtBody()->getSourceRange());
    tooling::Replacements BodyEdits = Ctx.Edits.extract(BodyRange);
    OutlineError Err;
    auto EditedText = [&](SourceRange R) {
      auto Range = CharSourceRange::getTokenRange(R);
      std::string Text =
          Lexer::getSourceText(Range, SM, AST.getLangOpts()).str();
      auto Edited =
          tooling::applyAllReplacements(Text, Ctx.Edits.extract(Range));
      if (Edited)
        return std::move(*Edited);
      llvm::consumeError(Edited.takeError());
      return Text;
    };
    std::optional<OutlinedKernel> K = Outliner.outline(
        S.Call, S.Lambda, KernelName, BodyEdits, EditedText, Err);
    if (!K) {
      if (Err.Loc.isValid())
        error(Err.Loc, Err.Message);
      continue;
    }
    // `parallelFor(` and the lambda are replaced; the range (and the
    // DistArray) stay, so other rules' edits inside them compose.
    const Expr *LastKept = S.Call->getArg(S.Call->getNumArgs() - 2);
    SourceLocation AfterKept = Lexer::getLocForEndOfToken(
        SM.getExpansionRange(LastKept->getEndLoc()).getEnd(), 0, SM,
        AST.getLangOpts());
    if (!Ctx.Edits.replace(
            CharSourceRange::getCharRange(
                S.Call->getBeginLoc(),
                SM.getExpansionLoc(S.Call->getArg(0)->getBeginLoc())),
            K->LaunchHead, Name) ||
        !Ctx.Edits.replace(
            CharSourceRange::getTokenRange(AfterKept, S.Call->getEndLoc()),
            K->LaunchTail, Name))
      continue;
    if (Conditionals)
      K->InsertAt = Conditionals->hoist(K->InsertAt, S.Call->getBeginLoc(), SM);
    auto &Slot = Inserts[SM.getFileOffset(K->InsertAt)];
    Slot.first = K->InsertAt;
    if (K->DefineAt.isInvalid()) {
      Slot.second += K->Definition;
      continue;
    }
    // Declared before the class, defined after its `};`.
    Slot.second += K->Declaration;
    auto &After = AfterClass[SM.getFileOffset(K->DefineAt)];
    After.first = K->DefineAt;
    After.second += K->Definition;
  }
  for (auto &[Offset, Insert] : Inserts)
    Ctx.Edits.insert(Insert.first, Insert.second, Name);
  for (auto &[Offset, Insert] : AfterClass)
    Ctx.Edits.insert(Insert.first,
                     "\n\n" + llvm::StringRef(Insert.second).rtrim().str(),
                     Name);
}

} // namespace rewrite
} // namespace hpp
