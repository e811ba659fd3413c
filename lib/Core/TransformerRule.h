//===- TransformerRule.h - Rules written as Transformer rules ---*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Adapts a clang::transformer::RewriteRule (makeRule, changeTo, cat, ...)
/// to the Rule interface: its edits go to the EditCollector, and a failure to
/// compute an edit is a diagnostic tagged with the rule's name.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_CORE_TRANSFORMERRULE_H
#define HPP_REWRITE_LIB_CORE_TRANSFORMERRULE_H

#include "hpp-rewrite/Rule.h"

#include "clang/Tooling/Transformer/RewriteRule.h"

namespace hpp {
namespace rewrite {

/// A Rule whose behaviour is one Transformer RewriteRule.
class TransformerRule : public Rule {
public:
  TransformerRule(llvm::StringRef Name, RuleContext &Ctx,
                  clang::transformer::RewriteRule R)
      : Rule(Name, Ctx), R(std::move(R)) {}

  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  clang::transformer::RewriteRule R;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_CORE_TRANSFORMERRULE_H
