//===- Collectives.h - The dialect's group and warp collectives -*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Recognises calls of the dialect's collectives of device code
/// (hpp::groupReduce, hpp::warpReduce & co.; the table: Collectives.def).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_COLLECTIVES_H
#define HPP_REWRITE_LIB_DIALECT_COLLECTIVES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace hpp {
namespace rewrite {

/// Over what a collective of the dialect runs.
enum class CollectiveScope { None, Group, Warp };

/// The scope of \p FD when it is one of the dialect's collectives (a
/// function of namespace ::hpp itself, named in Collectives.def).
CollectiveScope dialectCollective(const clang::NamedDecl *FD);

/// The collective \p CE calls (resolved, or an unresolved call in a
/// template whose candidates are one), with its name in \p Name.
CollectiveScope dialectCollective(const clang::CallExpr *CE,
                                  llvm::StringRef *Name = nullptr);

/// The fully qualified names (`::hpp::warpReduce`) of \p Scope's rows.
llvm::ArrayRef<llvm::StringRef> collectiveNames(CollectiveScope Scope);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_COLLECTIVES_H
