//===- SourcePositionRule.h - __LINE__ and __func__ values ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_SOURCEPOSITIONRULE_H
#define HPP_REWRITE_LIB_RULES_SOURCEPOSITIONRULE_H

#include "Framework/TransformerRule.h"

#include <vector>

namespace hpp {
namespace rewrite {

/// The output moves code (bodies into kernels, kernels inserted above), so
/// the positions the source names would change: `__LINE__` written in the
/// main file becomes its line number in the input, and `__func__`,
/// `__FUNCTION__` and `__PRETTY_FUNCTION__` in a parallelFor body become
/// the string they name in the input (the lambda's call operator), not the
/// outlined kernel's name. A `__LINE__` reached through a macro of the
/// main file cannot be edited: the `#line` directives keep its value,
/// except where the output's lines drift (LineDirectives::drifts), where
/// it gets a warning. A function name spelled inside a macro of the main
/// file cannot be edited either, and it would name the kernel: an error
/// (the adapter's macro guard). One spelled in a header (assert's
/// `__PRETTY_FUNCTION__`) is not ours: it stays, and names the kernel.
class SourcePositionRule : public TransformerRule {
public:
  SourcePositionRule(llvm::StringRef Name, RuleContext &Ctx);
  void registerPPCallbacks() override;
  void onLinesSynced() override;
  /// The `#line` directives are this rule's: they keep the positions the
  /// `__LINE__`s of macros take.
  bool ownsLineDirectives() const override { return true; }

private:
  /// Records `__LINE__` expanded at \p Loc (a file or macro location).
  void lineExpanded(clang::SourceLocation Loc);

  /// The macro uses whose `__LINE__` takes the line of the use, for
  /// onLinesSynced.
  std::vector<clang::SourceLocation> MacroUses;
};

} // namespace rewrite
} // namespace hpp

#endif
