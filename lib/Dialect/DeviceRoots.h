//===- DeviceRoots.h - The outermost pieces of device code ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Rules that analyse device code as a whole (not node by node, as a
/// Transformer rule does) need its roots: `__device(hpp)` functions and
/// `__device(hpp)` lambdas (parallelFor bodies among them) of the main file,
/// as written (template instantiations are skipped). A lambda nested in a
/// root is part of that root, not a root of its own: DeviceRoots hands out
/// each outermost root once.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_DEVICEROOTS_H
#define HPP_REWRITE_LIB_DIALECT_DEVICEROOTS_H

#include "clang/AST/Stmt.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <vector>

namespace hpp {
namespace rewrite {

/// One outermost piece of device code.
struct DeviceRoot {
  const clang::Decl *D;    ///< the function, or the lambda's call operator
  const clang::Stmt *Body; ///< its body, nested lambdas included
};

/// Matches the roots of device code and hands each outermost one out once.
class DeviceRoots {
public:
  /// Registers \p CB for every root of device code in the main file.
  static void addMatchers(clang::ast_matchers::MatchFinder &Finder,
                          clang::ast_matchers::MatchFinder::MatchCallback *CB);

  /// The root a match of those matchers found, or std::nullopt when the
  /// match lies inside a root already handed out (a nested lambda).
  std::optional<DeviceRoot>
  take(const clang::ast_matchers::MatchFinder::MatchResult &Result);

private:
  std::vector<clang::SourceRange> Seen;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_DEVICEROOTS_H
