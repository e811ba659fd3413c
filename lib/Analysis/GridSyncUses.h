//===- GridSyncUses.h - Does a kernel reach __gpu_sync? ---------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Whether a parallelFor body calls `__gpu_sync()`, directly or through the
/// functions it calls: such a kernel needs every work-group resident at
/// once, so it is launched cooperatively (runtime/hpp/launch.h,
/// detail::cooperative).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_GRIDSYNCUSES_H
#define HPP_REWRITE_LIB_ANALYSIS_GRIDSYNCUSES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace hpp {
namespace rewrite {

/// True when \p FD is the dialect's `__gpu_sync`.
bool isGridSync(const clang::FunctionDecl *FD);

/// Remembers, per function of one AST, whether its body reaches
/// `__gpu_sync` (for a rule that asks about every call in device code).
class GridSyncIndex {
public:
  /// Whether \p FD's body reaches it (false without a body, and for the
  /// dialect API's own functions).
  bool reaches(const clang::FunctionDecl *FD);
  /// The answer for definition \p Def if known.
  std::optional<bool> known(const clang::FunctionDecl *Def) const;
  /// Forgets everything (a new translation unit).
  void clear() { Answers.clear(); }

private:
  llvm::DenseMap<const clang::FunctionDecl *, bool> Answers;
};

/// True when \p Body, or a function it calls (transitively, through the
/// bodies this TU defines), calls `__gpu_sync`; \p Index, if given,
/// answers for the functions it knows.
bool reachesGridSync(const clang::Stmt *Body, GridSyncIndex *Index = nullptr);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_GRIDSYNCUSES_H
