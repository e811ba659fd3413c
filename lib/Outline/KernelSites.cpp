//===- KernelSites.cpp - The lambdas a translation unit outlines ----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Outline/KernelSites.h"
#include "Framework/Conditionals.h"
#include "Outline/MacroRestate.h"

#include "hpp-rewrite/Rule.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"

#include <map>

using namespace clang;

namespace hpp {
namespace rewrite {

/// Whether only blanks stand before \p Loc on its line.
static bool atLineStart(SourceLocation Loc, const SourceManager &SM) {
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  llvm::StringRef Before = SM.getBufferData(FID).take_front(Offset);
  return Before.substr(Before.find_last_of('\n') + 1).trim().empty();
}

std::string KernelSites::kernelName(const FunctionDecl *F, KernelKind Kind) {
  std::string Base = "hpp_";
  if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(F))
    Base += M->getParent()->getNameAsString() + "_";
  Base += F ? F->getNameAsString() : "global";
  for (char &C : Base)
    if (!isalnum(static_cast<unsigned char>(C)) && C != '_')
      C = '_';
  switch (Kind) {
  case KernelKind::Task:
    Base += "_task";
    break;
  case KernelKind::Consumer:
    Base += "_consumer";
    break;
  case KernelKind::ParallelFor:
    Base += "_pfor";
    break;
  }
  Base += std::to_string(PerFunction[{F, int(Kind)}]++);
  std::string Name = Base;
  for (unsigned I = 1; !UsedNames.insert(Name).second; ++I)
    Name = Base + "_" + std::to_string(I); // Overloads share a name.
  return Name;
}

void KernelSites::emit(RuleContext &Ctx, ASTContext &AST,
                       const ConditionalBlocks *Conditionals,
                       llvm::StringRef Rule) {
  // Runs even after other errors, so that every problem is reported at
  // once; nothing is written when there are errors anyway.
  KernelOutliner Outliner(AST, &Ctx.lines(), Conditionals);
  std::map<unsigned, std::pair<SourceLocation, std::string>> Inserts,
      AfterClass;
  const SourceManager &SM = AST.getSourceManager();
  // Kernels are numbered, and emitted, in source order (the matchers
  // reach calls in loops and lambdas after the others).
  llvm::stable_sort(Sites, [&](const Site &A, const Site &B) {
    return SM.isBeforeInTranslationUnit(A.Expr->getBeginLoc(),
                                        B.Expr->getBeginLoc());
  });
  for (const Site &S : Sites) {
    OutlineError Err;
    std::optional<OutlineRequest> Req;
    if (S.Kind == KernelKind::Task)
      Req = OutlineRequest::forTask(S.Expr, S.TaskType, S.Lambda, AST, Err);
    else if (S.Kind == KernelKind::Consumer)
      Req = OutlineRequest::forConsumer(cast<CallExpr>(S.Expr), S.Lambda, Err);
    else
      Req =
          OutlineRequest::forParallelFor(cast<CallExpr>(S.Expr), S.Lambda, Err);
    if (!Req) {
      Ctx.Diags.error(Err.Loc, S.Rule, Err.Message);
      continue;
    }
    const std::string KernelName =
        kernelName(KernelOutliner::enclosingFunction(S.Lambda), S.Kind);
    auto BodyRange = CharSourceRange::getTokenRange(
        S.Lambda->getCompoundStmtBody()->getSourceRange());
    tooling::Replacements BodyEdits = Ctx.Edits.extract(BodyRange);
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
    std::optional<OutlinedKernel> K =
        Outliner.outline(*Req, KernelName, BodyEdits, EditedText, Err);
    if (!K) {
      if (Err.Loc.isValid())
        Ctx.Diags.error(Err.Loc, S.Rule, Err.Message);
      continue;
    }
    if (S.Kind != KernelKind::ParallelFor) {
      // Only the lambda is replaced: the Task, or the channel's consumer,
      // is made from the kernel and the captured values.
      const char *Make = S.Kind == KernelKind::Task
                             ? "hpp::detail::taskKernel("
                             : "hpp::detail::consumerKernel(";
      if (!Ctx.Edits.replace(
              CharSourceRange::getTokenRange(S.Lambda->getSourceRange()),
              Make + K->KernelExpr + K->Arguments + ")", S.Rule))
        continue;
    } else {
      // `parallelFor(` and the lambda are replaced; the range (and the
      // DistArray) stay, so other rules' edits inside them compose.
      const auto *Call = cast<CallExpr>(S.Expr);
      const Expr *LastKept = Call->getArg(Call->getNumArgs() - 2);
      SourceLocation AfterKept = Lexer::getLocForEndOfToken(
          SM.getExpansionRange(LastKept->getEndLoc()).getEnd(), 0, SM,
          AST.getLangOpts());
      if (!Ctx.Edits.replace(
              CharSourceRange::getCharRange(
                  Call->getBeginLoc(),
                  SM.getExpansionLoc(Call->getArg(0)->getBeginLoc())),
              "hpp::launchKernel(" + K->KernelExpr + ", ", S.Rule) ||
          !Ctx.Edits.replace(
              CharSourceRange::getTokenRange(AfterKept, Call->getEndLoc()),
              K->Arguments + ")", S.Rule))
        continue;
    }
    ++Outlined;
    if (Conditionals)
      K->InsertAt = Conditionals->hoist(K->InsertAt, S.Expr->getBeginLoc(), SM);
    // The macros of the copied text, as they were where it is written.
    SourceLocation Dest = K->DefineAt.isValid() ? K->DefineAt : K->InsertAt;
    std::optional<MacroRestate> Macros =
        restateMacros(Ctx.CI.getPreprocessor(), K->Copied, Dest, Err);
    if (!Macros) {
      Ctx.Diags.error(Err.Loc, S.Rule, Err.Message);
      continue;
    }
    if (!Macros->empty()) {
      // Directives start their own line.
      std::string Lead;
      if (K->DefineAt.isInvalid() && !atLineStart(K->InsertAt, SM))
        Lead = "\n";
      K->Definition = Lead + Macros->Before + K->Definition + Macros->After;
    }
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
    Ctx.Edits.insert(Insert.first, Insert.second, Rule);
  for (auto &[Offset, Insert] : AfterClass) {
    std::string Text = llvm::StringRef(Insert.second).rtrim().str();
    // A restored macro's directive must end its line.
    if (llvm::StringRef(Text).rsplit('\n').second.starts_with("#"))
      Text += "\n";
    Ctx.Edits.insert(Insert.first, "\n\n" + Text, Rule);
  }
  Sites.clear();
}

} // namespace rewrite
} // namespace hpp
