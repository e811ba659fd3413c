//===- OutlinePhase.cpp - The driver's outlining phase --------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Outline/OutlinePhase.h"
#include "Dialect/Devices.h"
#include "Framework/Conditionals.h"
#include "Framework/LineDirectives.h"
#include "Outline/KernelOutliner.h"
#include "Outline/MacroRestate.h"

#include "hpp-rewrite/Diagnostics.h"
#include "hpp-rewrite/EditCollector.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"

#include <map>

using namespace clang;

namespace hpp {
namespace rewrite {

OutlinePhase::OutlinePhase(Preprocessor &PP, EditCollector &Edits,
                           RuleDiagnostics &Diags, const LineDirectives &Lines)
    : PP(PP), Edits(Edits), Diags(Diags), Lines(Lines),
      Conditionals(ConditionalBlocks::record(PP)) {}

OutlinePhase::~OutlinePhase() = default;

/// Whether only blanks stand before \p Loc on its line.
static bool atLineStart(SourceLocation Loc, const SourceManager &SM) {
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  llvm::StringRef Before = SM.getBufferData(FID).take_front(Offset);
  return Before.substr(Before.find_last_of('\n') + 1).trim().empty();
}

std::string OutlinePhase::kernelName(const FunctionDecl *F, KernelKind Kind) {
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

/// The request of \p S, or std::nullopt after filling \p Err.
static std::optional<OutlineRequest> requestOf(const KernelSites::Site &S,
                                               const ASTContext &AST,
                                               OutlineError &Err) {
  switch (S.Kind) {
  case KernelKind::ParallelFor:
    return OutlineRequest::forParallelFor(cast<CallExpr>(S.Expr), S.Lambda,
                                          Err);
  case KernelKind::Task:
    return OutlineRequest::forTask(S.Expr, S.TaskType, S.Lambda, AST, Err);
  case KernelKind::Consumer:
    return OutlineRequest::forConsumer(cast<CallExpr>(S.Expr), S.Lambda, Err);
  }
  llvm_unreachable("unknown kernel kind");
}

bool OutlinePhase::replaceWithLaunch(const KernelSites::Site &S,
                                     const OutlinedKernel &K,
                                     const ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  switch (S.Kind) {
  case KernelKind::Task:
  case KernelKind::Consumer: {
    // Only the lambda is replaced: the Task, or the channel's consumer,
    // is made from the kernel and the captured values.
    const char *Make = S.Kind == KernelKind::Task
                           ? "hpp::detail::taskKernel("
                           : "hpp::detail::consumerKernel(";
    return Edits.replace(
        CharSourceRange::getTokenRange(S.Lambda->getSourceRange()),
        Make + K.KernelExpr + K.Arguments + ")", S.Rule);
  }
  case KernelKind::ParallelFor:
    break;
  }
  // `parallelFor(` and the lambda are replaced; the device, the range (and
  // the DistArray) stay, so other rules' edits inside them compose. With a
  // device, the kernel goes between the device and the range.
  const auto *Call = cast<CallExpr>(S.Expr);
  const Expr *LastKept = Call->getArg(Call->getNumArgs() - 2);
  SourceLocation AfterKept = Lexer::getLocForEndOfToken(
      SM.getExpansionRange(LastKept->getEndLoc()).getEnd(), 0, SM,
      AST.getLangOpts());
  const std::string Launch = "hpp::launchKernel(";
  bool Done;
  if (const Expr *Device = launchDevice(Call)) {
    SourceLocation AfterDevice = Lexer::getLocForEndOfToken(
        SM.getExpansionRange(Device->getEndLoc()).getEnd(), 0, SM,
        AST.getLangOpts());
    Done =
        Edits.replace(
            CharSourceRange::getCharRange(
                Call->getBeginLoc(), SM.getExpansionLoc(Device->getBeginLoc())),
            Launch, S.Rule) &&
        Edits.replace(CharSourceRange::getCharRange(
                          AfterDevice,
                          SM.getExpansionLoc(Call->getArg(1)->getBeginLoc())),
                      ", " + K.KernelExpr + ", ", S.Rule);
  } else {
    Done =
        Edits.replace(CharSourceRange::getCharRange(
                          Call->getBeginLoc(),
                          SM.getExpansionLoc(Call->getArg(0)->getBeginLoc())),
                      Launch + K.KernelExpr + ", ", S.Rule);
  }
  return Done && Edits.replace(CharSourceRange::getTokenRange(
                                   AfterKept, Call->getEndLoc()),
                               K.Arguments + ")", S.Rule);
}

std::optional<OutlinedKernel> OutlinePhase::outline(const KernelSites::Site &S,
                                                    KernelOutliner &Outliner,
                                                    ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  OutlineError Err;
  std::optional<OutlineRequest> Req = requestOf(S, AST, Err);
  if (!Req) {
    Diags.error(Err.Loc, S.Rule, Err.Message);
    return std::nullopt;
  }
  const std::string KernelName =
      kernelName(KernelOutliner::enclosingFunction(S.Lambda), S.Kind);
  // The edits other rules made inside the body move into the kernel.
  auto BodyRange = CharSourceRange::getTokenRange(
      S.Lambda->getCompoundStmtBody()->getSourceRange());
  tooling::Replacements BodyEdits = Edits.extract(BodyRange);
  auto EditedText = [&](SourceRange R) {
    auto Range = CharSourceRange::getTokenRange(R);
    std::string Text = Lexer::getSourceText(Range, SM, AST.getLangOpts()).str();
    auto Edited = tooling::applyAllReplacements(Text, Edits.extract(Range));
    if (Edited)
      return std::move(*Edited);
    llvm::consumeError(Edited.takeError());
    return Text;
  };
  std::optional<OutlinedKernel> K =
      Outliner.outline(*Req, KernelName, BodyEdits, EditedText, Err);
  if (!K) {
    if (Err.Loc.isValid())
      Diags.error(Err.Loc, S.Rule, Err.Message);
    return std::nullopt;
  }
  if (!replaceWithLaunch(S, *K, AST))
    return std::nullopt;
  ++Outlined;
  return K;
}

bool OutlinePhase::run(KernelSites &Sites, ASTContext &AST,
                       llvm::StringRef Tag) {
  if (Ran || Sites.closed()) {
    Diags.error(SourceLocation(), Tag,
                "internal error: the kernels were outlined twice; the file "
                "is not rewritten (please report this, with the input)");
    return false;
  }
  Ran = true;
  const SourceManager &SM = AST.getSourceManager();
  KernelOutliner Outliner(AST, &Lines, Conditionals.get());
  // The kernels to insert before top-level declarations, and after class
  // definitions, by offset.
  std::map<unsigned, std::pair<SourceLocation, std::string>> Inserts,
      AfterClass;
  for (const KernelSites::Site &S : Sites.close(SM)) {
    std::optional<OutlinedKernel> K = outline(S, Outliner, AST);
    if (!K)
      continue;
    K->InsertAt = Conditionals->hoist(K->InsertAt, S.Expr->getBeginLoc(), SM);
    // The macros of the copied text, as they were where it is written.
    SourceLocation Dest = K->DefineAt.isValid() ? K->DefineAt : K->InsertAt;
    OutlineError Err;
    std::optional<MacroRestate> Macros =
        restateMacros(PP, K->Copied, Dest, Err);
    if (!Macros) {
      Diags.error(Err.Loc, S.Rule, Err.Message);
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
    Edits.insert(Insert.first, Insert.second, Tag);
  for (auto &[Offset, Insert] : AfterClass) {
    std::string Text = llvm::StringRef(Insert.second).rtrim().str();
    // A restored macro's directive must end its line.
    if (llvm::StringRef(Text).rsplit('\n').second.starts_with("#"))
      Text += "\n";
    Edits.insert(Insert.first, "\n\n" + Text, Tag);
  }
  return true;
}

} // namespace rewrite
} // namespace hpp
