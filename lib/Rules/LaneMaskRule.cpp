//===- LaneMaskRule.cpp - 32-bit lane masks -> hpp::LaneMask --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/LaneMaskRule.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/WidthModel.h"
#include "Dialect/DeviceCode.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Frontend/CompilerInstance.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void LaneMaskRule::registerMatchers(MatchFinder &Finder) {
  addDeviceRootMatchers(Finder, this, Ctx);
}

void LaneMaskRule::run(const MatchFinder::MatchResult &R) {
  // Only kernels that run at the device's width widen their masks; the
  // others keep CUDA's 32-bit masks on 32-lane warps (WidthModel.h).
  auto Native = [&](const FunctionDecl *F) {
    return Ctx.widthModel().of(F).Model == WarpModel::Native;
  };
  // Every root, nested ones too: the flow takes each function once.
  const DeviceRoot *Root = Ctx.deviceCode().root(R);
  if (Root && Native(Root->Function) && Seen.insert(Root->Function).second)
    Flow.addRoot(Root->Function, Root->Body,
                 /*EditableParameters=*/!Root->Lambda);
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
  // `auto` deduces the mask type by itself (an invalid range).
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
  if (Kind == MaskLiteral::Full)
    Ctx.Edits.replace(Range, "hpp::getWarpFullMask()", Name);
}

} // namespace rewrite
} // namespace hpp
