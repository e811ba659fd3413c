//===- HostValues.h - The values of host variables --------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Port mode: where the value of a variable of host code comes from, for
/// the launch facts (LaunchFacts.h): a launch's block size and the device's
/// warp size read in host code are followed through the local variables of
/// a function to the values written to them, and through its parameters
/// to the arguments of its calls, transitively, within the translation
/// unit.
///
/// LocalWrites: how one function's body writes its local variables and
/// parameters (the values assigned, or that it writes one some other way,
/// which the tool does not follow).
///
/// HostValues: the writes of each function, and the calls of the
/// translation unit (HostCalls.h), computed when first asked.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_HOSTVALUES_H
#define HPP_REWRITE_LIB_ANALYSIS_HOSTVALUES_H

#include "Analysis/HostCalls.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <vector>

namespace hpp {
namespace rewrite {

/// How host function \p Fn's body writes each of its local variables and
/// parameters: the values assigned to it (a local's initialiser, `v = e`,
/// `v = dim3(...)`), or that it is written some other way (its address
/// taken, `v += e`, `++v`, bound to a non-const reference, a member
/// assigned).
class LocalWrites {
public:
  explicit LocalWrites(const clang::FunctionDecl *Fn);

  /// \p VD is a local variable or a parameter of the function, and the
  /// tool sees every value the body writes to it (values()); a parameter's
  /// other values are its calls' arguments (HostCalls).
  bool known(const clang::VarDecl *VD) const;
  /// The values the body writes to \p VD: a local's initialiser and the
  /// right-hand sides of its assignments.
  llvm::SmallVector<const clang::Expr *, 2>
  values(const clang::VarDecl *VD) const;

private:
  const clang::Stmt *parent(unsigned Up) const;
  void classify(const clang::DeclRefExpr *DRE, const clang::VarDecl *VD);
  void walk(const clang::Stmt *S);

  const clang::FunctionDecl *Fn;
  std::vector<const clang::Stmt *> Stack;
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::Expr *, 2>>
      Assigned;
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Escaped;
};

/// The writes of each function and the calls of the translation unit,
/// computed when first asked.
class HostValues {
public:
  explicit HostValues(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  ~HostValues();

  /// The writes of the function whose local variable or parameter \p VD
  /// is; null for a variable of no function.
  const LocalWrites *writes(const clang::VarDecl *VD);
  /// The calls of the translation unit.
  const HostCalls &calls();

private:
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<LocalWrites>>
      Writes;
  std::unique_ptr<HostCalls> Calls;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_HOSTVALUES_H
