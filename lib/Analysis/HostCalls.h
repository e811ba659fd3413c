//===- HostCalls.h - The calls of host functions ----------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Port mode: the calls of each function of the rewritten files (template
/// instantiations included), for following a parameter of host code to
/// the arguments its calls pass (HostValues.h), and why a function may
/// also be called where the tool does not see the call: it is virtual, its
/// address is taken (a lambda's closure passed on), it is a constructor or
/// an operator, it has external linkage (another source may call it), or
/// nothing here calls it. Calls from the code of headers that are not
/// rewritten (a system template that calls a function by name) are not
/// seen. Also the launches, and the calls whose callee's body the tool
/// does not follow.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_HOSTCALLS_H
#define HPP_REWRITE_LIB_ANALYSIS_HOSTCALLS_H

#include "Analysis/WidthFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

/// A call of a host function that the tool sees.
struct HostCall {
  const clang::CallExpr *Call;
  /// The call is in a template's pattern: each instantiation of the
  /// template holds a call of its own, and the pattern's never runs.
  bool InPattern = false;
  /// The argument for the callee's parameter \p I (a CXXDefaultArgExpr for
  /// a default argument); null when there is none.
  const clang::Expr *argument(unsigned I) const;
};

/// The calls of the functions of the rewritten files (their traversal
/// scope), and the launches and calls of the host code there.
class HostCalls {
public:
  explicit HostCalls(clang::ASTContext &Ctx);
  ~HostCalls();

  /// The calls of \p Fn the tool sees.
  llvm::ArrayRef<HostCall> of(const clang::FunctionDecl *Fn) const;
  /// Why \p Fn may be called where the tool does not see the call, at
  /// \p Fn (`'run' has external linkage: another source may call it`); an
  /// invalid location when the tool sees every call.
  WidthFact unseen(const clang::FunctionDecl *Fn) const;
  /// \p Fn as a note names it: `'run'`, `'Launcher::run'`, `the lambda
  /// 'run'`.
  std::string name(const clang::FunctionDecl *Fn) const;
  /// Every launch, instantiations included.
  llvm::ArrayRef<const clang::CUDAKernelCallExpr *> launches() const {
    return Launches;
  }
  /// The calls whose callee's body the tool does not follow: through a
  /// pointer, a virtual call, a function of the rewritten files that is
  /// defined in another source.
  llvm::ArrayRef<const clang::CallExpr *> unfollowed() const {
    return Unfollowed;
  }

private:
  class Indexer;
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<HostCall, 2>>
      Calls;
  /// Functions named other than as a callee (a lambda: its closure).
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> Taken;
  /// The variable a lambda's closure is held in, by its call operator.
  llvm::DenseMap<const clang::FunctionDecl *, const clang::VarDecl *>
      ClosureVars;
  std::vector<const clang::CUDAKernelCallExpr *> Launches;
  std::vector<const clang::CallExpr *> Unfollowed;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_HOSTCALLS_H
