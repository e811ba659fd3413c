//===- LaneMaskRule.cpp - 32-bit lane masks -> hpp::LaneMask --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/LaneMaskRule.h"
#include "Core/DeviceCode.h"
#include "Core/DeviceRewrite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Frontend/CompilerInstance.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {
constexpr const char *LostLanes =
    ": on a 64-lane wavefront lanes 32-63 are lost";

std::string widthOf(QualType T, const ASTContext &AST) {
  return std::to_string(AST.getIntWidth(T.getNonReferenceType())) + "-bit";
}

/// `hpp::LaneMask` in place of the type specifier of \p D, where the tool
/// could write it (the main file, not a macro).
std::optional<FixItHint> laneMaskFixIt(const DeclaratorDecl *D,
                                       const SourceManager &SM) {
  SourceRange Spec = typeSpecifierRange(D);
  if (Spec.isInvalid() || Spec.getBegin().isMacroID() ||
      !SM.isWrittenInMainFile(Spec.getBegin()))
    return std::nullopt;
  return FixItHint::CreateReplacement(Spec, "hpp::LaneMask");
}
} // namespace

void LaneMaskRule::registerMatchers(MatchFinder &Finder) {
  deviceRootMatchers(Finder, this);
}

void LaneMaskRule::run(const MatchFinder::MatchResult &R) {
  if (const auto *F = R.Nodes.getNodeAs<FunctionDecl>("hpp-device-fn")) {
    if (F->getBody() && Seen.insert(F).second)
      Flow.addRoot(F, F->getBody(), /*EditableParameters=*/true);
  } else if (const auto *LE =
                 R.Nodes.getNodeAs<LambdaExpr>("hpp-device-body")) {
    if (Seen.insert(LE->getCallOperator()).second)
      Flow.addRoot(LE->getCallOperator(), LE->getBody(), false);
  }
}

void LaneMaskRule::onEndOfTranslationUnit(ASTContext &AST) {
  if (AST.getDiagnostics().hasErrorOccurred())
    return;
  Flow.solve(AST);
  for (const VarDecl *VD : Flow.maskVariables())
    retype(VD, AST);
  for (const Expr *Lit : Flow.maskLiterals())
    widenLiteral(Lit, AST);
  for (const CallExpr *CE : Flow.bitCalls())
    Ctx.Edits.replace(
        CharSourceRange::getTokenRange(CE->getCallee()->getSourceRange()),
        ("hpp::" + maskBitFunction(globalCalleeName(CE))).str(), Name);
  for (const BinaryOperator *BO : Flow.clzArithmetic())
    later(BO->getOperatorLoc(), [=, &AST] { reportClzArithmetic(BO, AST); });
  for (const MaskEscape &E : Flow.escapes())
    later(E.At->getBeginLoc(), [=, &AST] { reportEscape(E, AST); });
  // The warnings in source order.
  const SourceManager &SM = AST.getSourceManager();
  llvm::stable_sort(Reports, [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.first),
                                        SM.getExpansionLoc(B.first));
  });
  for (auto &R : Reports)
    R.second();
  Reports.clear();
}

void LaneMaskRule::retype(const VarDecl *VD, ASTContext &AST) {
  if (!Flow.isLocal(VD) || !isNarrowInteger(VD->getType(), AST))
    return;
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    // Every declaration of the function says the same.
    const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
    unsigned I = P->getFunctionScopeIndex();
    if (F)
      for (const FunctionDecl *D : F->redecls())
        if (I < D->getNumParams())
          replaceTypeSpecifier(D->getParamDecl(I));
    return;
  }
  SourceRange Spec = typeSpecifierRange(VD);
  if (Spec.isInvalid())
    return; // `auto` deduces the mask type by itself.
  for (const VarDecl *Other : Flow.sharingTypeSpecifier(Spec.getBegin()))
    if (!Flow.isMaskVariable(Other)) {
      std::string Msg = "lane mask '" + VD->getName().str() +
                        "' shares its declaration with '" +
                        Other->getName().str() +
                        "', which is not a mask; declare it on its own as "
                        "hpp::LaneMask";
      later(VD->getLocation(), [=] { warning(VD->getLocation(), Msg); });
      return;
    }
  replaceTypeSpecifier(VD);
}

void LaneMaskRule::replaceTypeSpecifier(const DeclaratorDecl *D) {
  SourceRange Spec = typeSpecifierRange(D);
  if (Spec.isValid() && Retyped.insert(Spec.getBegin()).second)
    Ctx.Edits.replace(CharSourceRange::getTokenRange(Spec), "hpp::LaneMask",
                      Name);
}

void LaneMaskRule::widenLiteral(const Expr *Lit, ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  CharSourceRange Range = editRange(Lit, SM, AST.getLangOpts());
  MaskLiteral Kind = classifyMaskLiteral(Lit, AST);
  if (Kind != MaskLiteral::Full && Flow.isShifted(Lit)) {
    Ctx.Edits.replace(Range,
                      "hpp::LaneMask(" +
                          sourceText(Range, SM, AST.getLangOpts()) + ")",
                      Name);
    return;
  }
  switch (Kind) {
  case MaskLiteral::Full:
    Ctx.Edits.replace(Range, "hpp::getWarpFullMask()", Name);
    break;
  case MaskLiteral::Partial:
    if (Flow.isWholeMask(Lit)) {
      SourceLocation At = SM.getExpansionLoc(Lit->getBeginLoc());
      std::string Msg = "lane mask " +
                        sourceText(Range, SM, AST.getLangOpts()) +
                        " names lanes of a 32-lane warp: on a 64-lane "
                        "wavefront lanes 32-63 are not in it";
      later(At, [=] { warning(At, Msg); });
    }
    break;
  default:
    break;
  }
}

void LaneMaskRule::reportClzArithmetic(const BinaryOperator *BO,
                                       ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  const Expr *LHS = BO->getLHS()->IgnoreImplicit();
  std::string Count =
      sourceText(editRange(LHS, SM, AST.getLangOpts()), SM, AST.getLangOpts());
  auto Diag = warning(BO->getOperatorLoc(),
                      "'" + Count +
                          " - __clz(mask)' counts bits of a 32-bit mask, but "
                          "hpp::clzMask counts over the whole hpp::LaneMask "
                          "(64 bits on HIP and the CPU backend); count from "
                          "hpp::getMaxWarpSize(), its width");
  const auto *IL = dyn_cast<IntegerLiteral>(LHS);
  if (IL && !IL->getBeginLoc().isMacroID() &&
      (IL->getValue() == 31 || IL->getValue() == 32))
    Diag << FixItHint::CreateReplacement(
        IL->getSourceRange(), IL->getValue() == 31 ? "hpp::getMaxWarpSize() - 1"
                                                   : "hpp::getMaxWarpSize()");
}

void LaneMaskRule::reportEscape(const MaskEscape &E, ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  std::string Width = widthOf(E.Type, AST);
  std::string Target =
      E.Target ? "'" + E.Target->getNameAsString() + "'" : std::string();
  const auto *Declarator = dyn_cast_or_null<DeclaratorDecl>(E.Target);
  SourceLocation At = SM.getExpansionLoc(E.At->getBeginLoc());
  switch (E.Kind) {
  case MaskEscape::Field:
    warning(At, "lane mask in the " + Width + " field " + Target + LostLanes);
    break;
  case MaskEscape::Element:
    warning(At, "lane mask in a " + Width + " array element" + LostLanes);
    if (E.Target)
      note(E.Target->getLocation(),
           "declare the elements of " + Target + " as hpp::LaneMask");
    return;
  case MaskEscape::Parameter: {
    const auto *Fn = dyn_cast<FunctionDecl>(E.Target->getDeclContext());
    warning(At, "lane mask passed as the " + Width + " parameter " + Target +
                    " of '" + (Fn ? Fn->getNameAsString() : "") +
                    "', which hpp-rewrite does not change" + LostLanes);
    break;
  }
  case MaskEscape::OuterVariable:
    warning(At, "lane mask in the " + Width + " variable " + Target +
                    ", declared outside device code" + LostLanes);
    break;
  case MaskEscape::Return: {
    const auto *Fn = cast<FunctionDecl>(E.Target);
    warning(At, "lane mask returned as " + Width + " '" + E.Type.getAsString() +
                    "' from " + Target + LostLanes);
    auto Note = note(Fn->getLocation(), "declare the return type of " + Target +
                                            " as hpp::LaneMask");
    SourceRange Ret = Fn->getReturnTypeSourceRange();
    if (Ret.isValid() && !Ret.getBegin().isMacroID() &&
        SM.isWrittenInMainFile(Ret.getBegin()))
      Note << FixItHint::CreateReplacement(Ret, "hpp::LaneMask");
    return;
  }
  }
  auto Note =
      note(E.Target->getLocation(), "declare " + Target + " as hpp::LaneMask");
  if (Declarator)
    if (std::optional<FixItHint> Fix = laneMaskFixIt(Declarator, SM))
      Note << *Fix;
}

} // namespace rewrite
} // namespace hpp
