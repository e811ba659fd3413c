//===- WidthUses.h - Where host code uses the mvector width -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds the uses of `MVECTOR_SIZE` and `warpSize` in the host code of a
/// function body (parallelFor bodies and other device lambdas are skipped),
/// or in device code, and classifies each by what the context needs: a
/// run-time value, a template argument of a call statement (which a width
/// dispatch can serve), or some other constant.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_WIDTHUSES_H
#define HPP_REWRITE_LIB_ANALYSIS_WIDTHUSES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"

#include <vector>

namespace clang {
class ASTContext;
}

namespace hpp {
namespace rewrite {

/// One use of the mvector width.
struct WidthUse {
  enum ContextKind {
    RunTime,     ///< An ordinary expression.
    DispatchArg, ///< A template argument of the call statement `Stmt`.
    Constant,    ///< Another context that needs a constant expression.
    /// A read, in a device lambda of host code, of a constant that holds
    /// the width (`Via`) and that the lambda does not capture: the kernel
    /// would get the value it has while the tool parses.
    Uncaptured,
  };
  /// `MVECTOR_SIZE` or `warpSize` as written; for a use through a constant
  /// (`Via`), the name of the constant.
  clang::CharSourceRange Range;
  ContextKind Context;
  /// For DispatchArg: the call statement to dispatch (an expression
  /// statement in a block, or the whole sub-statement of a label, a `case`,
  /// an `if` or a loop).
  const clang::Expr *Stmt = nullptr;
  /// For DispatchArg: the statement is not directly in a block (`case 1:
  /// f<W>(x);`, `if (c) f<W>(x);`), so the dispatch, several statements,
  /// must be wrapped in braces together with the statement's `;`.
  bool NeedsBraces = false;
  /// Not a spelling of the width but a `const` variable initialised with
  /// it (`const int w = MVECTOR_SIZE / 2;`, also through other such
  /// variables), used where a constant is needed (`int buf[w];`): it is a
  /// constant only while the tool parses. Recorded only in Constant
  /// contexts (a template argument of a call statement included) and as
  /// Uncaptured, never edited.
  const clang::VarDecl *Via = nullptr;
  /// `MVECTOR_SIZE` written inside the expansion of another macro (its
  /// body or an argument): Range is the outer macro's use, which no edit
  /// may change.
  bool InMacro = false;
};

/// The width uses in the host code of \p Body, in source order (uses
/// through constants after the uses in their initialisers).
std::vector<WidthUse> findHostWidthUses(const clang::Stmt *Body,
                                        clang::ASTContext &Ctx);

/// The width uses in the host code of the declaration \p D (its type and
/// its initialiser): for variables and members outside functions.
std::vector<WidthUse> findHostWidthUses(const clang::Decl *D,
                                        clang::ASTContext &Ctx);

/// The width uses in the device code \p Body (a parallelFor body or a
/// device function's body, the lambdas in it included), classified as for
/// host code, except that device code has no width dispatch: every
/// template argument is a Constant use.
std::vector<WidthUse> findDeviceWidthUses(const clang::Stmt *Body,
                                          clang::ASTContext &Ctx);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_WIDTHUSES_H
