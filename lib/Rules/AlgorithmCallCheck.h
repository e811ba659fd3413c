//===- AlgorithmCallCheck.h - Calls of the runtime's kernels ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_ALGORITHMCALLCHECK_H
#define HPP_REWRITE_LIB_RULES_ALGORITHMCALLCHECK_H

#include "hpp-rewrite/Rule.h"

#include "llvm/ADT/DenseSet.h"

namespace hpp {
namespace rewrite {

/// The runtime's performance kernels (hpp::reduce, inclusiveScan,
/// exclusiveScan, select, histogram) are called from host code, with a
/// function object whose class the rewrite can make device code. Refused
/// at the call: a call in device code; a lambda, a function or a function
/// pointer as the function object (the kernel calls it on the device, and
/// nvcc compiles what host code writes for the host only).
class AlgorithmCallCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit(clang::ASTContext &AST) override;

private:
  llvm::DenseSet<unsigned> Reported;
};

} // namespace rewrite
} // namespace hpp

#endif
