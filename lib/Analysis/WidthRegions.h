//===- WidthRegions.h - Host code that needs the width constant -*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Host code that needs the mvector width as a constant (an array bound, a
/// `constexpr` variable, `if constexpr`, `static_assert`, a template
/// argument outside a call statement, a `const` variable initialised with
/// the width and used as one) cannot have it: on HIP the host knows the
/// width only at run time. Such code is dispatched as a whole: the
/// statements of its block from the first that needs the constant to the
/// last that uses anything they declare (a *width region*) run inside
/// `hpp::withWarpSize([&](auto hppWarp) { ... })`, once per width, where the
/// width is the constant `decltype(hppWarp)::value`.
///
/// A region is one run of statements of one block; regions inside another
/// region are part of it, and regions of one block that meet (one uses what
/// the other declares) are one. A region in a switch's body that holds a
/// case label is the whole switch. A region can be dispatched when control
/// leaves it only by falling off its end or, in a region that reaches the
/// end of a function's body (a function-try-block's block or handler
/// included), by `return`; otherwise it records why not.
///
/// Inside the lambda the region's code is a template's: a qualified name
/// whose qualifier the width now makes dependent needs `typename` or
/// `template` (`Tile<MVECTOR_SIZE>::Inner`, `tile.get<1>()`); the region
/// records where (filled by findDependentNames, Rules/WidthDispatch.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_WIDTHREGIONS_H
#define HPP_REWRITE_LIB_ANALYSIS_WIDTHREGIONS_H

#include "Analysis/WidthUses.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace hpp {
namespace rewrite {

/// A run of statements of one block that is dispatched on the width.
struct WidthRegion {
  const clang::CompoundStmt *Block = nullptr;
  unsigned First = 0, Last = 0; ///< Statement indices in Block, inclusive.
  /// From the first statement's first character to the last one's last.
  clang::CharSourceRange Range;
  /// The region returns from its function, which returns a value: the
  /// dispatch is returned.
  bool ReturnsValue = false;
  /// Then the type its lambda returns, as written; empty where the
  /// function's is deduced (`auto`), and so is the lambda's.
  std::string ReturnType;
  /// Empty when the region can be dispatched; else why not, at ProblemLoc.
  std::string Problem;
  clang::SourceLocation ProblemLoc;
  /// The first use that needs the constant.
  clang::SourceLocation FirstUse;
  /// The lambda's parameter, whose type holds the width: `hppWarp`, or
  /// with `_` after it until the region's text does not hold it.
  std::string Param = "hppWarp";
  /// A keyword the dispatch must write before a name in the region
  /// (findDependentNames).
  struct Keyword {
    clang::SourceLocation Loc;
    llvm::StringRef Text; ///< "typename " or "template " (static).
  };
  std::vector<Keyword> Keywords;

  /// Whether \p Loc (a file location) is inside the region.
  bool contains(clang::SourceLocation Loc,
                const clang::SourceManager &SM) const;
};

/// Whether \p U needs the width as a constant in host code (it starts a
/// region): a Constant use, or a call statement's template argument
/// through a `const` variable that holds the width.
bool needsWidthConstant(const WidthUse &U);

/// The width regions of the host code of \p Fn's body that its uses \p Uses
/// (findHostWidthUses) need, in source order.
std::vector<WidthRegion> findWidthRegions(const clang::FunctionDecl *Fn,
                                          llvm::ArrayRef<WidthUse> Uses,
                                          clang::ASTContext &Ctx);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_WIDTHREGIONS_H
