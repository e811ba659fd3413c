//===- BatchHandles.h - Elements of and pointers into a batch ---*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A consumer's `std::vector<T>` batch taken by value is, in the reference,
/// each work-item's own copy; in the rewrite it is the launch's shared
/// batch (an `hpp::Span<T>`). BatchHandles recognises the elements of the
/// batch (`data[i]`, `*p`, `p[k]`, `p->m`) and the pointers and iterators
/// into it (`data.data()`, `data.begin()`, `data.end()`, `&data[k]`, and
/// what arithmetic makes of them), and tells whether the context of one
/// only reads the batch: an element converted to a value or bound to a
/// reference to const, a pointer read through right there
/// (`*data.begin()`, `data.data()[k]`), compared, subtracted or converted
/// to a pointer to const. Anything else (a non-const reference, a non-const
/// member function, a pointer stored, passed or returned) may write.
///
/// An element used in a type-dependent expression (in a template, say
/// `T(data[i])`) is taken to be read: what the expression does depends on
/// the instantiation. A pointer in one is not.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_BATCHHANDLES_H
#define HPP_REWRITE_LIB_DIALECT_BATCHHANDLES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"

namespace hpp {
namespace rewrite {

/// The elements of and pointers into one batch parameter.
class BatchHandles {
public:
  explicit BatchHandles(const clang::ParmVarDecl *Batch) : Batch(Batch) {}

  /// `batch.data()`, `batch.begin()`, `batch.end()`, `&batch[k]` and what
  /// pointer arithmetic makes of them: a pointer or iterator into the batch.
  bool isHandle(const clang::Expr *E) const;
  /// An element of the batch (or a member of one): `batch[i]`, or reached
  /// through a handle (`*p`, `p[k]`, `p->m`).
  bool isPlace(const clang::Expr *E) const;

  /// Whether the last node of \p Path (the statements from the consumer's
  /// body down to it), an element (\p Handle false) or a pointer into the
  /// batch (\p Handle true), only reads the batch where it is used. When
  /// it does not, \p Handle says which one may be written through: the
  /// element, or a pointer to it (`&data[i]` passed on).
  bool onlyReads(llvm::ArrayRef<const clang::Stmt *> Path, bool &Handle) const;

private:
  /// One step up from \p Cur to its parent \p P: false when \p P may write
  /// through \p Cur; true with \p Climb when \p P is itself an element or
  /// a pointer (\p Handle updated) whose context decides.
  bool placeContextReads(const clang::Stmt *Cur, const clang::Stmt *P,
                         bool &Handle, bool &Climb) const;
  bool handleContextReads(const clang::Stmt *Cur, const clang::Stmt *P,
                          bool &Handle, bool &Climb) const;

  const clang::ParmVarDecl *Batch;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_BATCHHANDLES_H
