//===- Tasks.h - hpp::Task constructions ------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the rules need to know of `hpp::Task<R, IndexT>` (spec 1.8): its
/// template arguments, and the arguments of a construction in each of the
/// forms the AST gives it (a constructor call, or, in a template, an
/// unresolved construction, a parenthesised or braced initialiser).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_TASKS_H
#define HPP_REWRITE_LIB_DIALECT_TASKS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace hpp {
namespace rewrite {

/// The template arguments of an `hpp::Task<R, IndexT>`, as written where
/// the type spells them (an alias of R stays an alias).
struct TaskTypeArgs {
  clang::QualType Result; ///< R; void for a task without a value
  clang::QualType Index;  ///< IndexT: Index<N> or Index<N, N>
};

/// The arguments of \p T when it is (an alias of, a reference to) an
/// `hpp::Task` specialization, dependent or not.
std::optional<TaskTypeArgs> taskTypeArgs(clang::QualType T);

/// N and L of an `hpp::Index<N, L>` (L is 0 for Index<N>), or std::nullopt
/// when \p T is not a concrete Index.
std::optional<std::pair<int, int>> indexShape(clang::QualType T,
                                              const clang::ASTContext &Ctx);

/// The arguments of the Task construction \p Site (a CXXConstructExpr, a
/// CXXUnresolvedConstructExpr, a ParenListExpr or an InitListExpr).
llvm::SmallVector<const clang::Expr *, 2>
taskArguments(const clang::Expr *Site);

/// Whether \p E is the call to `hpp::detail::taskKernel` that the tool
/// writes in place of a Task's lambda (its own output, parsed again).
bool isTaskKernelCall(const clang::Expr *E);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_TASKS_H
