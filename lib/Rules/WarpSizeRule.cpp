//===- WarpSizeRule.cpp - warpSize / MVECTOR_SIZE in device code ----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/WarpSizeRule.h"
#include "Core/DeviceCode.h"
#include "Core/DialectMatchers.h"
#include "Core/WidthModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace hpp {
namespace rewrite {

/// The device width, however the source spells it; bound to "w".
static StatementMatcher widthUse() {
  // The macro's whole expansion is one parenthesised expression.
  return expr(anyOf(parenExpr(isExpandedFromMacro("MVECTOR_SIZE")),
                    declRefExpr(to(varDecl(hasName("::warpSize"))))))
      .bind("w");
}

/// The width of the kernel's warps (lib/Core/WidthModel.h): the device's,
/// or the 32 of a kernel that keeps 32-lane warps.
static RewriteRule deviceWidth(RuleContext &Ctx) {
  return makeRule(
      widthUse(),
      changeTo(node("w"), run([&Ctx](const MatchFinder::MatchResult &R)
                                  -> llvm::Expected<std::string> {
                 const auto *W = R.Nodes.getNodeAs<Expr>("w");
                 return Ctx.widthModel().at(W->getBeginLoc()).narrows()
                            ? "hpp::warp32::size"
                            : "hpp::getWarpSize()";
               })));
}

WarpSizeRule::WarpSizeRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(
          Name, Ctx,
          applyFirst(
              {makeRule(functionDecl(hasDeviceAnnotation(),
                                     isExpansionInMainFile(),
                                     unless(isTemplateInstantiation()),
                                     unless(cxxMethodDecl(ofClass(isLambda()))))
                            .bind("fn"),
                        rewriteDescendants("fn", deviceWidth(Ctx))),
               // The body only: init-captures are host code.
               makeRule(parallelForBodyStmt("body"),
                        rewriteDescendants("body", deviceWidth(Ctx)))})),
      Uneditable(Name, Ctx, "the warp width", "w") {}

void WarpSizeRule::registerMatchers(MatchFinder &Finder) {
  TransformerRule::registerMatchers(Finder);
  Finder.addMatcher(widthUse(), &Uneditable);
}

void WarpSizeRule::onEndOfTranslationUnit(ASTContext &AST) {
  if (AST.getDiagnostics().hasErrorOccurred())
    return;
  const SourceManager &SM = AST.getSourceManager();
  for (const WidthDecision &D : Ctx.widthModel().decisions()) {
    if (D.Model == WarpModel::AsWritten) {
      reportAsWritten(D, SM);
      continue;
    }
    if (!D.narrows())
      continue;
    SourceLocation At = SM.getExpansionLoc(D.RealWidth.Loc);
    if (!SM.isWrittenInMainFile(At))
      continue;
    remark(At, "this kernel keeps 32-lane warps on every target (two per "
               "64-lane wavefront): " +
                   D.RealWidth.What +
                   " stands for the 32-lane warp here, as on NVIDIA");
    note(SM.getExpansionLoc(D.ThirtyTwo.Loc),
         "the kernel assumes 32-lane warps here: " + D.ThirtyTwo.What);
    note(At, "to run on whole 64-lane wavefronts, write every width-"
             "dependent value of the kernel with warpSize "
             "(docs/width-model.md)");
  }
}

void WarpSizeRule::reportAsWritten(const WidthDecision &D,
                                   const SourceManager &SM) {
  SourceLocation At = SM.getExpansionLoc(D.ThirtyTwo.Loc);
  if (!SM.isWrittenInMainFile(At))
    return;
  warning(At, "this kernel mixes 64-bit lane masks, which name the whole "
              "64-lane wavefront, with 32-lane warps: it runs as written, and "
              "on a 64-lane wavefront it computes what the two widths give "
              "together, not what it computes on NVIDIA");
  note(At, "the kernel assumes 32-lane warps here: " + D.ThirtyTwo.What);
  note(SM.getExpansionLoc(D.RealWidth.Loc),
       "and uses the whole wavefront here: " + D.RealWidth.What);
  note(At, "use 32-bit masks (0xffffffff) for 32-lane warps, or write every "
           "width-dependent value with warpSize (docs/width-model.md)");
}

} // namespace rewrite
} // namespace hpp
