//===- RuntimeAlgorithms.h - Calls of the runtime's kernels -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The runtime's performance kernels (hpp::reduce, inclusiveScan,
/// exclusiveScan, select, histogram: RuntimeAlgorithms.def) are host calls
/// whose function object runs on the device. The device call graph makes
/// that object's call operators device code; hpp-algorithm-call refuses
/// what the kernels cannot call (a lambda, a function pointer) and a call
/// made from device code.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_RUNTIMEALGORITHMS_H
#define HPP_REWRITE_LIB_DIALECT_RUNTIMEALGORITHMS_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

namespace hpp {
namespace rewrite {

/// Whether \p FD is one of the runtime's performance kernels (a function
/// of namespace hpp named in RuntimeAlgorithms.def).
bool isRuntimeAlgorithm(const clang::FunctionDecl *FD);

/// The function-object argument of \p Call, a call of a runtime kernel, as
/// written (implicit conversions and temporaries stripped); null when the
/// kernel takes none or the call is of something else.
const clang::Expr *algorithmFunctor(const clang::CallExpr *Call);

/// The call operators (with a body) of the class of \p Functor: the
/// non-template ones and the instantiations of the templates. Empty for a
/// lambda, a function or a pointer.
llvm::SmallVector<const clang::FunctionDecl *, 2>
functorCallOperators(const clang::Expr *Functor);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_RUNTIMEALGORITHMS_H
