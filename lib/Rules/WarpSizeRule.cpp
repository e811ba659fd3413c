//===- WarpSizeRule.cpp - warpSize / MVECTOR_SIZE in device code ----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/WarpSizeRule.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/WidthModel.h"
#include "Analysis/WidthUses.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace hpp {
namespace rewrite {

/// The device width, however the source spells it; bound to "w". Not in a
/// system header: a library function's default argument (CUDA's
/// `int width = warpSize`) is the library's, and the call that takes it is
/// renamed to the runtime's, which has its own.
static StatementMatcher widthUse() {
  // The macro's whole expansion is one parenthesised expression.
  return expr(unless(isExpansionInSystemHeader()),
              anyOf(parenExpr(isExpandedFromMacro("MVECTOR_SIZE")),
                    declRefExpr(to(varDecl(hasName("::warpSize"))))))
      .bind("w");
}

/// The width of the kernel's warps (lib/Analysis/WidthModel.h): the device's,
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
    : TransformerRule(Name, Ctx, {"the warp width", node("w")}) {
  // A device function's declarations too (their default arguments), a
  // lambda's body only (its init-captures are host code).
  addRule(inDeviceCode(*this, Ctx, deviceWidth(Ctx)));
}

void WarpSizeRule::registerMatchers(MatchFinder &Finder) {
  TransformerRule::registerMatchers(Finder);
  addDeviceRootMatchers(Finder, &ConstantUses, Ctx);
}

void WarpSizeRule::ConstantUseCallback::run(const MatchFinder::MatchResult &R) {
  // A lambda root's body, without its init-captures (host code).
  if (const DeviceRoot *Root = Rule.Ctx.deviceCode().root(R))
    Rule.checkConstantUses(Root->Body, *R.Context);
}

/// The device width has no compile-time value on HIP
/// (`__builtin_amdgcn_wavefrontsize()` is folded late, and ROCm 7 made
/// `warpSize` a variable): in a kernel on whole wavefronts a use that needs
/// a constant cannot be lowered. A kernel on 32-lane warps has one,
/// `hpp::warp32::size`.
void WarpSizeRule::checkConstantUses(const Stmt *Body, ASTContext &AST) {
  if (!Body)
    return;
  const SourceManager &SM = AST.getSourceManager();
  for (const WidthUse &U : findDeviceWidthUses(Body, AST)) {
    if (U.Context == WidthUse::RunTime)
      continue;
    SourceLocation Loc = U.Range.getBegin();
    if (!isWrittenInRewrittenFile(SM, Loc) ||
        Ctx.widthModel().at(Loc).narrows() ||
        !ReportedConstantUses.insert(Loc).second)
      continue;
    if (U.Via) {
      std::string Var = U.Via->getNameAsString();
      error(Loc, "'" + Var +
                     "' holds the warp width, which is not a "
                     "compile-time constant in a kernel that runs on whole "
                     "wavefronts (HIP has no constant wavefront size), so it "
                     "cannot be a constant here");
      note(U.Via->getLocation(), "'" + Var +
                                     "' is initialised with the "
                                     "width here");
    } else {
      error(Loc, "the warp width is not a compile-time constant in a kernel "
                 "that runs on whole wavefronts (HIP has no constant "
                 "wavefront size), so it cannot be a constant here");
    }
    note(Loc, "use MVECTOR_MAX (64) for storage bounds (MVECTOR_MIN, 32, "
              "for the smallest width); a test of the width can be an "
              "ordinary `if`");
  }
}

void WarpSizeRule::finishTranslationUnit(ASTContext &AST) {
  if (AST.getDiagnostics().hasErrorOccurred())
    return;
  const SourceManager &SM = AST.getSourceManager();
  for (const WidthDecision &D : Ctx.widthModel().decisions()) {
    if (D.Model == WarpModel::AsWritten) {
      reportAsWritten(D, SM);
      continue;
    }
    // Nothing of this source's stands for the warp width when the real
    // width is another source's.
    if (!D.narrows() || D.RealWidthElsewhere)
      continue;
    SourceLocation At = SM.getExpansionLoc(D.RealWidth.Loc);
    if (!isWrittenInRewrittenFile(SM, At))
      continue;
    if (!D.BesideAsWritten.What.empty()) {
      reportBesideAsWritten(D, At, SM);
      continue;
    }
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

/// A kernel narrowed by the program's rule in a program where another
/// kernel runs as written: the two kernels' warps differ on a 64-lane
/// wavefront, and which data they exchange the tool cannot see.
void WarpSizeRule::reportBesideAsWritten(const WidthDecision &D,
                                         SourceLocation At,
                                         const SourceManager &SM) {
  warning(At, "this kernel keeps 32-lane warps, as another kernel of the "
              "program does, but a kernel of the program runs as written, "
              "with the device's warp width: on a 64-lane wavefront per-warp "
              "data that this kernel exchanges with that one (slots indexed "
              "by the warp width) disagrees");
  note(SM.getExpansionLoc(D.ThirtyTwo.Loc),
       "this kernel keeps 32-lane warps because of this: " + D.ThirtyTwo.What);
  const WidthFact &Other = D.BesideAsWritten;
  if (Other.Loc.isValid())
    note(SM.getExpansionLoc(Other.Loc),
         "this kernel runs as written: " + Other.What);
  else
    note(At, "a kernel of another source of the program runs as written (" +
                 Other.What + ")");
  note(At, "write the kernels that exchange per-warp data with one width "
           "throughout: 32-bit masks and 32-lane facts, or warpSize and "
           "64-bit masks (docs/width-model.md)");
}

void WarpSizeRule::reportAsWritten(const WidthDecision &D,
                                   const SourceManager &SM) {
  SourceLocation At = SM.getExpansionLoc(D.ThirtyTwo.Loc);
  if (!isWrittenInRewrittenFile(SM, At))
    return;
  if (D.Joined)
    warning(At, "this kernel runs as written, each warp operation on the "
                "lanes its mask names: it shares warp code of a project "
                "header with kernels of other sources, and together they mix "
                "64-bit lane masks, which name the whole 64-lane wavefront, "
                "with 32-lane warps; on a 64-lane wavefront it may not "
                "compute what it computes on NVIDIA");
  else
    warning(At, "this kernel mixes 64-bit lane masks, which name the whole "
                "64-lane wavefront, with 32-lane warps: it runs as written, "
                "and on a 64-lane wavefront it computes what the two widths "
                "give together, not what it computes on NVIDIA");
  note(At, "the kernel assumes 32-lane warps here: " + D.ThirtyTwo.What);
  note(SM.getExpansionLoc(D.RealWidth.Loc),
       "and uses the whole wavefront here: " + D.RealWidth.What);
  note(At, "use 32-bit masks (0xffffffff) for 32-lane warps, or write every "
           "width-dependent value with warpSize (docs/width-model.md)");
  // The other kernels of the component run as written too: they share warp
  // code with this one (a helper is compiled once), whatever they would be
  // alone.
  // A kernel that reaches no use of the real width runs on 32-lane warps
  // either way, unless the component's use is in another source.
  for (const WidthDecision::Root &Root : D.Roots) {
    const WidthFact &Real = Root.RealWidth.Loc.isValid() ? Root.RealWidth
                            : D.Joined                   ? D.RealWidth
                                                         : Root.RealWidth;
    const Stmt *Body = Root.Function->getBody();
    // A lambda's introducer (`[=]`), a function's name.
    const auto *MD = dyn_cast<CXXMethodDecl>(Root.Function);
    SourceLocation Loc = SM.getExpansionLoc(MD && MD->getParent()->isLambda()
                                                ? MD->getParent()->getLocation()
                                                : Root.Function->getLocation());
    if (!Body || Real.Loc.isInvalid() || !isWrittenInRewrittenFile(SM, Loc) ||
        SM.isPointWithin(At, SM.getExpansionLoc(Body->getBeginLoc()),
                         SM.getExpansionLoc(Body->getEndLoc())))
      continue;
    warning(Loc, "this kernel runs as written, each warp operation on the "
                 "lanes its mask names: it shares warp code with a kernel "
                 "that mixes 64-bit lane masks with 32-lane warps, and on a "
                 "64-lane wavefront it may not compute what it computes on "
                 "NVIDIA");
    note(At, "the kernel it shares code with assumes 32-lane warps here: " +
                 D.ThirtyTwo.What);
    note(SM.getExpansionLoc(Real.Loc),
         "and this kernel uses the whole wavefront here: " + Real.What);
  }
}

} // namespace rewrite
} // namespace hpp
