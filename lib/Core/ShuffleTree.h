//===- ShuffleTree.h - Loops that drive warp shuffles -----------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Recognises the loops of warp reductions and scans as ported CUDA writes
/// them: `for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(m, v, o);`
/// (halving: a tree) and `for (int o = 1; o < 32; o <<= 1) ...` (doubling:
/// a scan or butterfly), where the loop variable feeds the lane, delta or
/// lane-mask argument of a shuffle over the whole warp.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_CORE_SHUFFLETREE_H
#define HPP_REWRITE_LIB_CORE_SHUFFLETREE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <optional>

namespace hpp {
namespace rewrite {

/// A loop whose variable steps by powers of two into warp shuffles.
struct ShuffleTree {
  const clang::VarDecl *Var; ///< the loop variable
  const clang::Expr *Start;  ///< its initial value as written
  int Step;                  ///< -1: halves (`>>= 1`, `/= 2`, `= o / 2`);
                             ///< +1: doubles (`<<= 1`, `*= 2`, `+= o`, ...)
};

/// \p FS as a shuffle tree: its variable (declared or assigned in the init)
/// halves or doubles, and feeds argument 2 of at least one shuffle in the
/// body, none of which has a fixed width (a width argument other than the
/// warp width: such a loop is correct for that width already).
std::optional<ShuffleTree> matchShuffleTree(const clang::ForStmt *FS);

/// True when \p S refers to \p V anywhere.
bool refersTo(const clang::Stmt *S, const clang::VarDecl *V);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_CORE_SHUFFLETREE_H
