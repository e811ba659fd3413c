//===- WarpSizeRule.h - warpSize / MVECTOR_SIZE in device code --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_WARPSIZERULE_H
#define HPP_REWRITE_LIB_RULES_WARPSIZERULE_H

#include "Core/DeviceRewrite.h"
#include "Core/TransformerRule.h"

namespace hpp {
namespace rewrite {

/// In device code (parallelFor bodies, __device(hpp) functions), `warpSize`
/// and `MVECTOR_SIZE` become `hpp::getWarpSize()`: exact per target, and
/// independent of `warpSize` being constexpr (it is not since ROCm 7.0). In
/// a kernel that keeps 32-lane warps (lib/Core/WidthModel.h) they become
/// `hpp::warp32::size`, with a remark that says why. Host uses are left to
/// the width-dispatch rule.
class WarpSizeRule : public TransformerRule {
public:
  WarpSizeRule(llvm::StringRef Name, RuleContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void onEndOfTranslationUnit(clang::ASTContext &AST) override;

private:
  UneditableInDeviceCode Uneditable;
};

} // namespace rewrite
} // namespace hpp

#endif
