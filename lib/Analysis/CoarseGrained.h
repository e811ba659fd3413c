//===- CoarseGrained.h - Kernel pointers to cudaMalloc memory ---*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Port mode: which pointer parameters of the CUDA kernels of a translation
/// unit are known to point to coarse-grained memory, the memory cudaMalloc
/// (hipMalloc on AMD) returns. On AMD a fast floating-point atomic is right
/// there and silently wrong on fine-grained memory (host-pinned, managed),
/// so hpp-cuda-fp-atomic asks here before it writes one.
///
/// A kernel's parameter is known coarse-grained when
///  - the kernel is declared only in the main file (a kernel of a header
///    may be launched by other sources), is launched at least once
///    (`k<<<...>>>(args)`, CUDAKernelCallExpr, in a template's
///    instantiations) and is named nowhere else (its address taken, a
///    cooperative launch, an occupancy query: it may be launched with other
///    memory);
///  - every launch passes for it `v`, `v + i`, `v - i` or `&v[i]` (casts
///    between pointer types allowed) where `v` is a local variable of the
///    host, or a global one of internal linkage, with no initialiser but a
///    null pointer, whose every other use reads its value, except
///    `cudaMalloc(&v, ...)` (also through `(void **)&v`), at least once: not
///    a parameter of the host function, not cudaMallocManaged's,
///    cudaMallocHost's, cudaHostAlloc's or malloc's, never assigned, its
///    address never taken otherwise;
///  - the kernel never assigns the parameter.
/// Anything else is not known, with the reason (CoarseGrainedParams::whyNot).
/// Computed once for the translation unit, templates through their
/// instantiations; a kernel template's parameter is known when it is in
/// every instantiation.
///
/// A parameter of a `__device__` function (not also `__host__`, not a
/// member) is known the same way through its calls: the function is
/// declared only in the main file, named only in calls, called at least
/// once, never assigns the parameter, and every call passes for it `p`,
/// `p + i`, `&p[i]` where `p` is a parameter of the calling kernel or
/// device function that is known coarse-grained (transitively; a cycle of
/// calls is not known). Struct fields, `__device__` variables and local
/// pointer variables of device code are not followed.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_COARSEGRAINED_H
#define HPP_REWRITE_LIB_ANALYSIS_COARSEGRAINED_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hpp {
namespace rewrite {

/// One reason a parameter is not known coarse-grained: where, and what.
struct CoarseGrainedNote {
  clang::SourceLocation Loc;
  std::string What;
};

/// The variable whose pointer \p E is: `v`, `v + i`, `i + v`, `v - i`,
/// `&v[i]` (`v` a pointer or an array), `&v`, through parentheses and
/// casts between pointer types; its reference, or null.
const clang::DeclRefExpr *pointerBase(const clang::Expr *E);

/// The kernels' pointer parameters of one translation unit that are known
/// to point to coarse-grained memory (see the file comment).
class CoarseGrainedParams {
public:
  /// Analyses the traversal scope of \p Ctx (the rewritten files).
  explicit CoarseGrainedParams(clang::ASTContext &Ctx);

  /// Why parameter \p Index of the kernel or `__device__` function
  /// \p Kernel (as written: a template's pattern, or the function itself)
  /// is not known to point to coarse-grained memory: the launch or call
  /// and the argument, the store, ...; empty when it is known.
  llvm::ArrayRef<CoarseGrainedNote> whyNot(const clang::FunctionDecl *Kernel,
                                           unsigned Index);

private:
  /// Why the memory of the host variable \p Var is not known to be
  /// cudaMalloc's; empty when it is.
  llvm::SmallVector<CoarseGrainedNote, 2>
  variableProblem(const clang::VarDecl *Var);
  /// The reasons for parameter \p Index of \p Kernel, computed.
  std::vector<CoarseGrainedNote> compute(const clang::FunctionDecl *Kernel,
                                         unsigned Index);
  /// The same for a device function's parameter, from its calls.
  std::vector<CoarseGrainedNote> computeDevice(const clang::FunctionDecl *F,
                                               unsigned Index);

  clang::ASTContext &Ctx;
  /// The launches with a resolved kernel, by the kernel's pattern
  /// (canonical declaration).
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<const clang::CallExpr *>>
      Launches;
  /// The calls of each `__device__` function (not `__host__` too), by its
  /// pattern (canonical declaration).
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<const clang::CallExpr *>>
      Calls;
  /// Each reference to a kernel that is not a launch's callee, or to a
  /// device function that is not a call's, by the function's pattern
  /// (canonical declaration); the first one.
  llvm::DenseMap<const clang::FunctionDecl *, const clang::Expr *> OtherUses;
  /// Every reference to each variable of pointer type.
  llvm::DenseMap<const clang::VarDecl *,
                 std::vector<const clang::DeclRefExpr *>>
      Refs;
  /// References that only read the variable's value.
  llvm::DenseSet<const clang::DeclRefExpr *> Reads;
  /// `&v` as the first argument of an allocation call, with its callee's
  /// name (cudaMalloc, cudaMallocManaged, ...).
  llvm::DenseMap<const clang::DeclRefExpr *, std::string> Allocations;
  /// The answers, by (kernel pattern, parameter index).
  std::map<std::pair<const clang::FunctionDecl *, unsigned>,
           std::vector<CoarseGrainedNote>>
      Answers;
  friend class CoarseGrainedScan;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_COARSEGRAINED_H
