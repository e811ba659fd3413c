//===- WidthDispatch.h - The text of host width dispatches ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What hpp-host-warp-size writes where host code needs the mvector width
/// (spec 1.5 and 3.2): the run-time width, a call statement's
/// guard-plus-dispatch, and the opening and closing of a width region
/// (Analysis/WidthRegions.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_WIDTHDISPATCH_H
#define HPP_REWRITE_LIB_RULES_WIDTHDISPATCH_H

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace hpp {
namespace rewrite {

struct WidthUse;
struct WidthRegion;

/// The host's run-time width: the current device's.
inline constexpr llvm::StringLiteral RunTimeWidth =
    "hpp::getWarpSize(hpp::getDevice())";
/// The width as a constant inside a width region.
inline constexpr llvm::StringLiteral RegionWidth = "decltype(hppWarp)::value";
/// What closes a width region, after its last statement.
inline constexpr llvm::StringLiteral RegionClosing = " });";

/// What opens width region \p R, before its first statement:
/// `hpp::withWarpSize([&](auto hppWarp) { `, returned where it returns a
/// value.
std::string regionOpening(const WidthRegion &R);

/// A call statement's dispatch: \p Text replaces \p Range, or \p Problem
/// (", because ...") says why it cannot be written.
struct WidthDispatch {
  clang::CharSourceRange Range;
  std::string Text;
  std::string Problem;
};

/// The guard-plus-dispatch of the call statement \p Call whose explicit
/// template arguments hold the width uses \p Uses (DispatchArg; others in
/// the call read the run-time width):
/// `if constexpr (hpp::getMaxWarpSize() == 32) f<32>(x); else if
/// (<run-time width> == 32) f<32>(x); else f<64>(x)`, one line each; in
/// braces, with the statement's `;`, where \p Braces (the statement is not
/// directly in a block).
WidthDispatch dispatchCallStatement(const clang::Expr *Call, bool Braces,
                                    std::vector<const WidthUse *> Uses,
                                    clang::ASTContext &AST);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_WIDTHDISPATCH_H
