//===- SyncWarpRule.cpp - __syncwarp -> cg::tiled_partition sync ----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/SyncWarpRule.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/LaneMask.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace hpp {
namespace rewrite {

EditGenerator SyncWarpRule::dropMask(SyncWarpRule *Self) {
  return [Self](const MatchFinder::MatchResult &R)
             -> llvm::Expected<SmallVector<Edit, 1>> {
    const auto *Call = R.Nodes.getNodeAs<CallExpr>("call");
    // `__syncwarp(__activemask())`: hpp-warp-intrinsic renamed the inner
    // call already; the replacement below removes it.
    Self->Ctx.Edits.extract(
        editRange(Call, *R.SourceManager, R.Context->getLangOpts()));
    const Expr *Mask = laneMaskArgument(Call);
    if (Mask && classifyMaskLiteral(Mask, *R.Context) != MaskLiteral::Full)
      Self->warning(Mask->getExprLoc(),
                    "__syncwarp with a mask that is not the full warp: it "
                    "becomes a sync of the whole 32-lane tile, and on AMD the "
                    "whole wavefront synchronizes, not only the lanes of the "
                    "mask");
    return SmallVector<Edit, 1>();
  };
}

SyncWarpRule::SyncWarpRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(Name, Ctx, {"the warp barrier", node("call")}) {
  addRule(inDeviceCode(
      *this, Ctx,
      makeRule(globalCallTo({"__syncwarp"}),
               flatten(dropMask(this),
                       changeTo(node("call"),
                                cat("cg::tiled_partition<MVECTOR_MIN>(cg::"
                                    "this_thread_block()).sync()"))))));
}

} // namespace rewrite
} // namespace hpp
