//===- WidthUses.h - Where host code uses the mvector width -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds the uses of `MVECTOR_SIZE` and `warpSize` in the host code of a
/// function body (parallelFor bodies and other device lambdas are skipped)
/// and classifies each by what the context needs: a run-time value, a
/// template argument of a call statement (which a width dispatch can
/// serve), or some other constant.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_CORE_WIDTHUSES_H
#define HPP_REWRITE_LIB_CORE_WIDTHUSES_H

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"

#include <vector>

namespace clang {
class ASTContext;
}

namespace hpp {
namespace rewrite {

/// One spelled use of the mvector width.
struct WidthUse {
  enum ContextKind {
    RunTime,     ///< An ordinary expression.
    DispatchArg, ///< A template argument of the call statement `Stmt`.
    Constant,    ///< Another context that needs a constant expression.
  };
  clang::CharSourceRange Range; ///< `MVECTOR_SIZE` or `warpSize` as written.
  ContextKind Context;
  /// For DispatchArg: the call statement to dispatch (an expression
  /// statement directly in a compound statement).
  const clang::Expr *Stmt = nullptr;
};

/// The width uses in the host code of \p Body, in source order.
std::vector<WidthUse> findHostWidthUses(const clang::Stmt *Body,
                                        clang::ASTContext &Ctx);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_CORE_WIDTHUSES_H
