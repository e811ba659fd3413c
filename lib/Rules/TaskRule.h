//===- TaskRule.h - Outline Task bodies into kernels ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_TASKRULE_H
#define HPP_REWRITE_LIB_RULES_TASKRULE_H

#include "hpp-rewrite/Rule.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace clang {
class ASTContext;
class Expr;
class LambdaExpr;
} // namespace clang

namespace hpp {
namespace rewrite {

/// Lowers `hpp::Task<R, IndexT> t(lambda)` (spec 1.8): the lambda becomes a
/// `__global__` kernel `hpp_<f>_task<k>` taking a `Range<N, N>`, a
/// `TaskResult<R>` and the captures, and the construction makes the Task
/// from `hpp::detail::taskKernel(kernel, captures...)`. enqueue, Future,
/// wait, get and `&&` stay as written. Refuses a body that is not a lambda
/// written in the construction, one written through a macro, a Task made in
/// device code and a lambda that does not take one Index. The bodies are
/// collected here and outlined with the parallelFor kernels by the
/// driver's outlining phase (lib/Outline/OutlinePhase.h).
class TaskRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  /// Reports a `__device(hpp)` lambda of host code from which a call makes
  /// a Task elsewhere (`v.emplace_back(lambda)` on a vector of Tasks,
  /// `std::make_shared<Task<...>>(lambda)`): no construction in the source
  /// holds it, so it is not outlined, and the output would keep a lambda
  /// where the runtime's Task takes a kernel.
  void checkLaunched(const clang::LambdaExpr *LE, clang::ASTContext &AST);
  /// Constructions seen (a default argument is reached from each call).
  llvm::SmallPtrSet<const clang::Expr *, 16> Seen;
};

} // namespace rewrite
} // namespace hpp

#endif
