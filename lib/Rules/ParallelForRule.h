//===- ParallelForRule.h - Outline parallelFor into kernels -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_PARALLELFORRULE_H
#define HPP_REWRITE_LIB_RULES_PARALLELFORRULE_H

#include "hpp-rewrite/Rule.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace clang {
class CallExpr;
class FunctionDecl;
class LambdaExpr;
class LangOptions;
class SourceManager;
class UsingDecl;
} // namespace clang

namespace hpp {
namespace rewrite {

/// Outlines each parallelFor lambda into a named `__global__` kernel and
/// replaces the call with a checked launch: collects the calls
/// (lib/Outline/KernelSites.h), which the driver's outlining phase
/// outlines with the Task bodies hpp-task and the Channel consumers
/// hpp-channel collected, once every rule's edits inside the bodies are
/// known (they move with the body; lib/Outline/OutlinePhase.h). The
/// kernels' insertions are filed under this rule.
class ParallelForRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
  bool ownsOutlinedKernels() const override { return true; }

private:
  void removeUsing(const clang::UsingDecl *UD, const clang::SourceManager &SM,
                   const clang::LangOptions &LO);

  /// Calls seen (a default argument is reached again from each call).
  llvm::SmallPtrSet<const clang::CallExpr *, 16> Seen;
};

} // namespace rewrite
} // namespace hpp

#endif
