//===- ParallelForRule.h - Outline parallelFor into kernels -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_PARALLELFORRULE_H
#define HPP_REWRITE_LIB_RULES_PARALLELFORRULE_H

#include "hpp-rewrite/Rule.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

#include "Core/Conditionals.h"

#include <map>
#include <memory>
#include <vector>

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
/// replaces the call with a checked launch. A stateful callback: kernels are
/// emitted at the end of the translation unit, after every other rule's
/// edits inside the bodies are known (they move with the body).
class ParallelForRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void registerPPCallbacks() override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override;

private:
  /// The main file's #if blocks: a kernel never lands in a branch that
  /// ends before its launch.
  std::shared_ptr<ConditionalBlocks> Conditionals;
  /// A call to outline, in source order.
  struct Site {
    const clang::CallExpr *Call;
    const clang::LambdaExpr *Lambda;
    const clang::FunctionDecl *Enclosing; ///< null outside any function
  };
  std::string kernelName(const clang::FunctionDecl *F);
  void removeUsing(const clang::UsingDecl *UD, const clang::SourceManager &SM,
                   const clang::LangOptions &LO);

  std::vector<Site> Sites;
  /// Calls seen (a default argument is reached again from each call).
  llvm::SmallPtrSet<const clang::CallExpr *, 16> Seen;
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> PerFunction;
  llvm::StringSet<> UsedNames;
};

} // namespace rewrite
} // namespace hpp

#endif
