//===- WarpSizeRule.h - warpSize / MVECTOR_SIZE in device code --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_WARPSIZERULE_H
#define HPP_REWRITE_LIB_RULES_WARPSIZERULE_H

#include "Analysis/WidthModel.h"
#include "Framework/TransformerRule.h"

#include "llvm/ADT/DenseSet.h"

namespace hpp {
namespace rewrite {

/// In device code (parallelFor bodies, __device(hpp) functions), `warpSize`
/// and `MVECTOR_SIZE` become `hpp::getWarpSize()`: exact per target, and
/// independent of `warpSize` being constexpr (it is not since ROCm 7.0). In
/// a kernel that keeps 32-lane warps (lib/Analysis/WidthModel.h) they become
/// `hpp::warp32::size`, with a remark that says why; a kernel that mixes
/// 64-bit masks with 32-lane warps runs as written, with a warning. Host
/// uses are left to the width-dispatch rule. A width spelled inside a
/// macro cannot be rewritten: an error (the adapter's macro guard).
class WarpSizeRule : public TransformerRule {
public:
  WarpSizeRule(llvm::StringRef Name, RuleContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void finishTranslationUnit(clang::ASTContext &AST) override;

private:
  /// Warns about a kernel that runs as written (WidthModel.h's AsWritten).
  void reportAsWritten(const WidthDecision &D, const clang::SourceManager &SM);
  /// Warns about a kernel narrowed by the program's rule beside one that
  /// runs as written (WidthDecision::BesideAsWritten), at \p At.
  void reportBesideAsWritten(const WidthDecision &D, clang::SourceLocation At,
                             const clang::SourceManager &SM);
  /// Reports the uses of the width that need a constant in the device code
  /// \p Body of a kernel that runs on whole wavefronts.
  void checkConstantUses(const clang::Stmt *Body, clang::ASTContext &AST);

  /// Runs checkConstantUses on each device root.
  class ConstantUseCallback
      : public clang::ast_matchers::MatchFinder::MatchCallback {
  public:
    explicit ConstantUseCallback(WarpSizeRule &Rule) : Rule(Rule) {}
    void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

  private:
    WarpSizeRule &Rule;
  };

  ConstantUseCallback ConstantUses{*this};
  llvm::DenseSet<clang::SourceLocation> ReportedConstantUses;
};

} // namespace rewrite
} // namespace hpp

#endif
