//===- WarpIntrinsicRule.cpp - Warp intrinsics -> hpp:: ops ---------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/WarpIntrinsicRule.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/LaneMask.h"
#include "Analysis/WidthModel.h"
#include "Dialect/Collectives.h"

#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace hpp {
namespace rewrite {

/// `Cuda(args)` -> `hpp::Hpp(args)` (a Native kernel, or a 64-bit mask's
/// operation in an AsWritten one) or `hpp::warp32::Hpp(args)` (otherwise:
/// lib/Analysis/WidthModel.h) for
/// every row of the table. The intrinsics are global functions (with
/// defaulted file/line parameters in the CPU dialect runtime): matched by
/// name, resolved or not. One case, whose text comes from the table.
static RewriteRule renameIntrinsics(RuleContext &Ctx) {
  return makeRule(
      globalCallTo(warpIntrinsicNames()),
      changeTo(node("callee"), run([&Ctx](const MatchFinder::MatchResult &R)
                                       -> llvm::Expected<std::string> {
                 const auto *Call = R.Nodes.getNodeAs<CallExpr>("call");
                 WarpModel Model =
                     Ctx.widthModel().at(Call->getBeginLoc()).Model;
                 bool Native = Model == WarpModel::Native;
                 // As written: a 64-bit mask's operation is the wavefront's.
                 if (Model == WarpModel::AsWritten && laneMaskArgument(Call))
                   Native = isWideLaneMask(Call, *R.Context);
                 return ((Native ? "hpp::" : "hpp::warp32::") +
                         warpOperation(globalCalleeName(Call)))
                     .str();
               })));
}

/// The callee of a call of one of the dialect's warp collectives as
/// written, qualifier included, up to its name (not its template
/// arguments): `warpReduce`, `hpp::warpReduce`.
static llvm::Expected<CharSourceRange>
warpCollectiveCallee(const MatchFinder::MatchResult &R) {
  const Expr *Callee = R.Nodes.getNodeAs<Expr>("callee")->IgnoreParenImpCasts();
  SourceLocation Name = Callee->getBeginLoc();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    Name = DRE->getLocation();
  else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    Name = ULE->getNameLoc();
  return CharSourceRange::getTokenRange(Callee->getBeginLoc(), Name);
}

/// `warpReduce(v, op)` -> `hpp::warp32::warpReduce(v, op)` in a kernel
/// that keeps 32-lane warps (the table: Dialect/Collectives.def): the
/// collective then runs over the 32-lane warp the kernel is proven at, as
/// on NVIDIA. Elsewhere the call stays, over the device's warp (the
/// guard's Leave).
static RewriteRule narrowCollectives() {
  auto Named = hasAnyName(collectiveNames(CollectiveScope::Warp));
  return makeRule(
      callExpr(callee(expr(ignoringParenImpCasts(
                               anyOf(declRefExpr(to(functionDecl(Named))),
                                     unresolvedLookupExpr(
                                         hasAnyDeclaration(namedDecl(Named))))))
                          .bind("callee")))
          .bind("call"),
      changeTo(warpCollectiveCallee, run([](const MatchFinder::MatchResult &R)
                                             -> llvm::Expected<std::string> {
                 StringRef Name;
                 dialectCollective(R.Nodes.getNodeAs<CallExpr>("call"), &Name);
                 return ("hpp::warp32::" + Name).str();
               })));
}

/// What the rule edits; a dialect collective in a kernel on the device's
/// warps is left as written.
static TransformerRule::Guard warpRuleGuard(RuleContext &Ctx) {
  TransformerRule::Guard G{"the warp intrinsic", node("callee")};
  G.Leave = [&Ctx](const MatchFinder::MatchResult &R) {
    const auto *Call = R.Nodes.getNodeAs<CallExpr>("call");
    return Call && dialectCollective(Call) == CollectiveScope::Warp &&
           !Ctx.widthModel().at(Call->getBeginLoc()).narrows();
  };
  return G;
}

WarpIntrinsicRule::WarpIntrinsicRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(Name, Ctx, warpRuleGuard(Ctx)) {
  addRule(inDeviceCode(*this, Ctx, renameIntrinsics(Ctx)));
  addRule(inDeviceCode(*this, Ctx, narrowCollectives()));
}

} // namespace rewrite
} // namespace hpp
