//===- LaneMaskRule.h - 32-bit lane masks -> hpp::LaneMask ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_LANEMASKRULE_H
#define HPP_REWRITE_LIB_RULES_LANEMASKRULE_H

#include "Analysis/LaneMask.h"
#include "hpp-rewrite/Rule.h"

#include <functional>
#include <vector>

namespace hpp {
namespace rewrite {

/// Lane masks in device code become as wide as a wavefront
/// (lib/Analysis/LaneMask.h says what a mask is):
/// in the kernels that run on whole wavefronts (lib/Analysis/WidthModel.h),
/// which by that choice hold no mask the rule could not widen:
///  - a full-mask literal (0xffffffff, ~0u, -1, ...) used as a mask becomes
///    `hpp::getWarpFullMask()`;
///  - local variables and parameters of device functions of a 32-bit
///    integer type that hold masks get type `hpp::LaneMask` (`auto` stays);
///  - `__popc` / `__ffs` / `__clz` of a mask become `hpp::popcMask` /
///    `hpp::ffsMask` / `hpp::clzMask` (the 64-bit forms on HIP).
/// A mask kept where the type cannot change (a field, an array element, a
/// parameter of another function, a variable declared outside device code,
/// a narrow return type), a partial mask literal and `__clz` keep a kernel
/// on 32-lane warps instead, where 32-bit masks are right.
class LaneMaskRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit(clang::ASTContext &AST) override;

private:
  void retype(const clang::VarDecl *VD, clang::ASTContext &AST);
  void replaceTypeSpecifier(const clang::DeclaratorDecl *D);
  void widenLiteral(const clang::Expr *Lit, clang::ASTContext &AST);

  LaneMaskFlow Flow;
  llvm::DenseSet<const clang::FunctionDecl *> Seen;
  llvm::DenseSet<clang::SourceLocation> Retyped;
};

} // namespace rewrite
} // namespace hpp

#endif
