//===- WarpIntrinsicRule.cpp - Warp intrinsics -> hpp:: ops ---------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/WarpIntrinsicRule.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/LaneMask.h"
#include "Analysis/WidthModel.h"

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

WarpIntrinsicRule::WarpIntrinsicRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(Name, Ctx, {"the warp intrinsic", node("callee")}) {
  addRule(inDeviceCode(*this, Ctx, renameIntrinsics(Ctx)));
}

} // namespace rewrite
} // namespace hpp
