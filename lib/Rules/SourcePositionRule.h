//===- SourcePositionRule.h - __LINE__ and __func__ values ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_SOURCEPOSITIONRULE_H
#define HPP_REWRITE_LIB_RULES_SOURCEPOSITIONRULE_H

#include "Core/TransformerRule.h"

namespace hpp {
namespace rewrite {

/// The output moves code (bodies into kernels, kernels inserted above), so
/// the positions the source names would change: `__LINE__` written in the
/// main file becomes its line number in the input, and `__func__`,
/// `__FUNCTION__` and `__PRETTY_FUNCTION__` in a parallelFor body become
/// the string they name in the input (the lambda's call operator), not the
/// outlined kernel's name. A `__LINE__` reached through another macro
/// cannot be edited; in a body it gets a warning.
class SourcePositionRule : public TransformerRule {
public:
  SourcePositionRule(llvm::StringRef Name, RuleContext &Ctx);
  void registerPPCallbacks() override;

private:
  /// Records `__LINE__` expanded at \p Loc (a file or macro location).
  void lineExpanded(clang::SourceLocation Loc);
};

} // namespace rewrite
} // namespace hpp

#endif
