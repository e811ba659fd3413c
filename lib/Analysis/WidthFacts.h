//===- WidthFacts.h - What device code says of the warp width ---*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The facts the width model decides on (lib/Analysis/WidthModel.h,
/// docs/width-model.md), found in one body of device code as written: its
/// uses of the real width (`warpSize`, `MVECTOR_SIZE`, a 64-bit mask), its
/// 32-lane facts (the literals 16, 31 and 32, `>> 5`, `__clz`, a shuffle
/// width that is not the warp's, a mask computed as 32 bits), and whether
/// its code is warp code at all.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_WIDTHFACTS_H
#define HPP_REWRITE_LIB_ANALYSIS_WIDTHFACTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

class LaneMaskFlow;

/// A source place that took part in a decision, and what it is.
struct WidthFact {
  clang::SourceLocation Loc;
  std::string What;
};

/// What one body says about the warp width, as written.
struct BodyWidthFacts {
  /// The first use of the real width; invalid when there is none.
  WidthFact RealWidth;
  /// The first 32-lane fact; invalid when there is none.
  WidthFact ThirtyTwo;
  /// A warp intrinsic takes a 64-bit mask.
  bool WideMask = false;
  /// The body is warp code: it calls a warp intrinsic or collective, a
  /// mask bit function (`__popc`, ...) or reads the width (`warpSize`,
  /// `MVECTOR_SIZE`, `hpp::getWarpSize()`). A body that is not, and has no
  /// fact, is rewritten the same whatever its callers' warps are.
  bool WarpCode = false;
};

/// Scans \p Body (nested lambdas included).
BodyWidthFacts scanWidthFacts(const clang::Stmt *Body, clang::ASTContext &Ctx);

/// A call, in \p E or its bit operations, of a function of the user's that
/// returns a narrow integer: a mask the tool cannot widen (`fullMask()`,
/// `b & lanesBelow(lane)`).
const clang::CallExpr *narrowMaskCall(const clang::Expr *E,
                                      const clang::ASTContext &Ctx);

/// The calls of \p Body's bit operations that combine a lane mask of
/// \p Masks with a narrow value computed by a user function, and those
/// whose narrow value initialises or is assigned to a mask variable.
std::vector<const clang::CallExpr *>
maskHelperCalls(const clang::Stmt *Body, const LaneMaskFlow &Masks,
                const clang::ASTContext &Ctx);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_WIDTHFACTS_H
