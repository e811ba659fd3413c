//===- LaneId.h - Values that differ between lanes --------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the warp rules need to know about device code: which expressions
/// depend on the work-item's id (and so may differ between the lanes of one
/// warp), which calls are warp collectives, and which expressions are the
/// warp width. The id analysis is deliberately simple: id sources
/// (lib/Analysis/LaneId.def: threadIdx, the id accessors of hpp::Index), the
/// arithmetic, comparisons and casts applied to them, and the local
/// variables initialised or assigned from such values, followed through
/// one piece of device code (nested lambdas included) to a fixed point.
/// Loads (`p[id]`), calls and control dependence do not propagate: the
/// analysis finds lane arithmetic and id-dependent conditions, not every
/// divergent value. Dividing by the warp width (`id / warpSize`: the warp's
/// index) gives a value that is uniform across the warp; so do `id / 32`
/// and `id >> 5`, the index of a 32-lane warp.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_LANEID_H
#define HPP_REWRITE_LIB_ANALYSIS_LANEID_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

namespace hpp {
namespace rewrite {

/// The kinds of warp collectives (lib/Analysis/WarpCollectives.def).
enum class WarpCollectiveKind { None, Shuffle, Vote, Sync };

/// The CUDA name of the warp collective \p CE calls, or "" when it calls
/// none. Resolved calls and unresolved calls in templates alike.
llvm::StringRef warpCollectiveName(const clang::CallExpr *CE);

/// The kind of the collective named \p Name (None for other names).
WarpCollectiveKind warpCollectiveKind(llvm::StringRef Name);

/// Number of arguments of \p CE as written (default arguments dropped).
unsigned writtenArgCount(const clang::CallExpr *CE);

/// True when \p E is the warp width however it is spelled: `warpSize`,
/// `MVECTOR_SIZE`, `hpp::getWarpSize()`.
bool isWarpWidth(const clang::Expr *E);

/// True when \p S reads the warp width somewhere, directly or through the
/// initialiser of a variable (`warpSize / 2`, `w` after `const int w =
/// warpSize;`): `warpSize` and `MVECTOR_SIZE` are constants while the tool
/// parses, so such a variable looks like a constant 32 then.
bool readsWarpWidth(const clang::Stmt *S);

/// True when \p E reads the work-item id directly: `threadIdx.x`,
/// `i.getLocalX()`, `i.get_local_id(0)`, ...
bool isIdSource(const clang::Expr *E);

/// The id-dependent values of one piece of device code.
class LaneId {
public:
  /// Analyses \p Body: a parallelFor body or a device function's body,
  /// nested lambdas included.
  explicit LaneId(const clang::Stmt *Body);

  /// True when the value of \p E depends on the work-item's id.
  bool dependsOnId(const clang::Expr *E) const;
  /// True when \p VD is given an id-dependent value somewhere in the body.
  bool isIdVariable(const clang::VarDecl *VD) const {
    return Tainted.contains(VD);
  }
  /// True when \p E is the lane's index in its warp: `id % 32`,
  /// `id % warpSize`, `id & 31`, `id & (warpSize - 1)`, or a variable
  /// initialised with one.
  bool isLaneIndex(const clang::Expr *E) const;

private:
  llvm::DenseSet<const clang::VarDecl *> Tainted;
  llvm::DenseSet<const clang::VarDecl *> LaneVars;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_LANEID_H
