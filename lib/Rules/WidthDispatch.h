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
/// (Analysis/WidthRegions.h), with the `typename` and `template` its names
/// need once they are a generic lambda's.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_WIDTHDISPATCH_H
#define HPP_REWRITE_LIB_RULES_WIDTHDISPATCH_H

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
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
/// What closes a width region, after its last statement.
inline constexpr llvm::StringLiteral RegionClosing = " });";

/// What opens width region \p R, before its first statement:
/// `hpp::withWarpSize([&](auto hppWarp) { `, returned where it returns a
/// value (the parameter is R.Param).
std::string regionOpening(const WidthRegion &R);

/// The width as a constant inside width region \p R:
/// `decltype(hppWarp)::value`.
std::string regionWidth(const WidthRegion &R);

/// The insertions that dispatch region \p R: its opening, the keywords of
/// its names (findDependentNames) and its closing, one per place.
std::vector<std::pair<clang::SourceLocation, std::string>>
regionInsertions(const WidthRegion &R);

/// Records in \p R (a region that can be dispatched) the names that need
/// `typename` or `template` once its statements are a template's: a
/// qualified type name, a member template or a qualified template whose
/// qualifier or object mentions the width (\p Uses) or something the region
/// declares that does (`Tile<MVECTOR_SIZE>::Inner`, `tile.get<1>()`). Where
/// such a name is written inside a macro's expansion, sets R's Problem.
void findDependentNames(WidthRegion &R, llvm::ArrayRef<WidthUse> Uses,
                        clang::ASTContext &AST);

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
