//===- WidthRegionStatements.h - What a region's statements do --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What findWidthRegions (Analysis/WidthRegions.h) asks of the statements
/// it would run inside `hpp::withWarpSize([&](auto hppWarp) { ... })`: how
/// control leaves them and what else keeps them out of a lambda, what they
/// declare for the statements after them, which statements refer to that,
/// and how their text is delimited.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_WIDTHREGIONSTATEMENTS_H
#define HPP_REWRITE_LIB_ANALYSIS_WIDTHREGIONSTATEMENTS_H

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace clang {
class LangOptions;
class SourceManager;
} // namespace clang

namespace hpp {
namespace rewrite {

/// What keeps statements from running inside a lambda, and whether they
/// return.
struct StatementExits {
  /// Empty, or what keeps them (a jump out of them, a label a goto outside
  /// them jumps to, a case label of an enclosing switch, a static local:
  /// one per width, a kernel launch: the outliner's, `__func__`: the
  /// lambda's name), at ProblemLoc.
  std::string Problem;
  clang::SourceLocation ProblemLoc;
  /// A `return` of theirs (a host lambda's or a local class's are their
  /// own).
  bool Returns = false;
};
/// What keeps \p Stmts, statements of the function body \p Body, from
/// running inside a lambda.
StatementExits findExits(llvm::ArrayRef<clang::Stmt *> Stmts,
                         const clang::Stmt *Body);

/// Adds to \p Out the declarations \p S makes for the statements after it
/// in its block (a structured binding's names, an enum's enumerators);
/// false for a using-directive, which is for all of them.
bool declaresFor(const clang::Stmt *S,
                 llvm::DenseSet<const clang::Decl *> &Out);

/// Whether \p S refers to one of \p Decls (a using-declaration: through
/// its shadows; a namespace alias: as a qualifier; a variable: also as an
/// explicit capture).
bool refersTo(const clang::Stmt *S,
              const llvm::DenseSet<const clang::Decl *> &Decls);

/// Whether \p S's text ends before its `;` (an expression statement, a
/// return, a do-while, a jump, or an `if`, a loop or a label ending in one).
bool endsBeforeSemicolon(const clang::Stmt *S);

/// The first `#if`, `#else`, `#elif` or `#endif` line of the text \p Range
/// (a file range) that is not balanced within it (its first and last
/// statements are in different branches), or an invalid location.
clang::SourceLocation unbalancedConditional(clang::CharSourceRange Range,
                                            const clang::SourceManager &SM,
                                            const clang::LangOptions &LO);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_WIDTHREGIONSTATEMENTS_H
