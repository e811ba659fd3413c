//===- KernelSites.h - The lambdas a translation unit outlines --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The parallelFor bodies, Task bodies and Channel consumers of a
/// translation unit, collected by their rules and outlined together once
/// every other rule's edits are known: kernels are named (`hpp_f_pfor<k>`,
/// `hpp_f_task<k>`, `hpp_f_consumer<k>`, unique across the kinds) and
/// emitted in source order.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_KERNELSITES_H
#define HPP_REWRITE_LIB_OUTLINE_KERNELSITES_H

#include "Outline/KernelOutliner.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace hpp {
namespace rewrite {

class ConditionalBlocks;
struct RuleContext;

/// The lambdas to outline, in the order the matchers found them.
class KernelSites {
public:
  /// One lambda to outline.
  struct Site {
    KernelKind Kind;
    /// The parallelFor call, the Task construction (the initialiser of a
    /// variable of a dependent Task type in a template), or the
    /// executeWith call of a consumer.
    const clang::Expr *Expr;
    const clang::LambdaExpr *Lambda;
    /// The Task's type (a Task only).
    clang::QualType TaskType;
    /// The rule that found it: its tag goes on errors and edits.
    llvm::StringRef Rule;
  };

  void add(const Site &S) { Sites.push_back(S); }

  /// Outlines every site, in source order: inserts the kernels and
  /// replaces each lambda (and a parallelFor's `parallelFor(`) with the
  /// launch; moves the edits other rules made inside the bodies with them.
  /// \p Conditionals keeps a kernel out of an #if block that ends before
  /// its launch. The kernels are inserted under the tag \p Rule.
  void emit(RuleContext &Ctx, clang::ASTContext &AST,
            const ConditionalBlocks *Conditionals, llvm::StringRef Rule);

  /// Number of kernels emit() outlined.
  unsigned outlined() const { return Outlined; }

private:
  std::string kernelName(const clang::FunctionDecl *F, KernelKind Kind);

  std::vector<Site> Sites;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, int>, unsigned>
      PerFunction;
  llvm::StringSet<> UsedNames;
  unsigned Outlined = 0;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_KERNELSITES_H
