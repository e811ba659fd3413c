//===- OutlineRequest.h - What a kernel is outlined from --------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The three kinds of kernel the tool outlines (a parallelFor body, a Task
/// body, a Channel consumer) and the request that describes one lambda to
/// outline: the construct it comes from and the shape of its kernel (the
/// range, a Task's result, a consumer's batch, a bound DistArray). The
/// rules name the kind of the sites they collect (Outline/KernelSites.h);
/// the outliner builds one kernel per request (Outline/KernelOutliner.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_OUTLINEREQUEST_H
#define HPP_REWRITE_LIB_OUTLINE_OUTLINEREQUEST_H

#include "Outline/OutlineError.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace hpp {
namespace rewrite {

/// What kind of kernel a lambda becomes.
enum class KernelKind {
  ParallelFor, ///< `hpp_f_pfor<k>`, launched where the call was
  Task,        ///< `hpp_f_task<k>`, launched by the Task's enqueue
  Consumer,    ///< `hpp_f_consumer<k>`, launched by a Channel per batch
};

/// The name of the construct a kernel of kind \p Kind is outlined from, in
/// messages and comments.
inline llvm::StringRef constructName(KernelKind Kind) {
  switch (Kind) {
  case KernelKind::Task:
    return "Task";
  case KernelKind::Consumer:
    return "Channel consumer";
  case KernelKind::ParallelFor:
    break;
  }
  return "parallelFor";
}

/// One lambda to outline, and the shape of its kernel.
struct OutlineRequest {
  KernelKind Kind = KernelKind::ParallelFor;
  /// The parallelFor call, the Task construction (or the initialiser of a
  /// Task variable) or the executeWith call (its location names the
  /// kernel's origin).
  const clang::Expr *Site = nullptr;
  const clang::LambdaExpr *Lambda = nullptr;
  /// The kernel's range parameter: `hpp::Range<Dims>`, or
  /// `hpp::Range<Dims, LocalDims>` when LocalDims is not 0.
  int Dims = 1, LocalDims = 0;
  /// parallelFor(range, darray, lambda) and executeWith(pred, range,
  /// darray, lambda): the BoundDistArray parameter, passed as the kernel's
  /// first parameter after the range (and a consumer's batch).
  const clang::ParmVarDecl *Bound = nullptr;
  /// A Task's R (void allowed): the kernel's second parameter is a
  /// `hpp::detail::TaskResult<R>`, and a value-returning body is wrapped in
  /// a lambda whose value is stored there.
  clang::QualType Result;
  /// The index type of a generic (`auto`) body: a Task's IndexT. Null: the
  /// range's `hpp::Index<Dims[, LocalDims]>`.
  clang::QualType Index;
  /// A consumer's T (of its `Channel<T>`): the kernel's second parameter is
  /// an `hpp::detail::ChannelBatch<T>`, which returns at once when its
  /// batch is not complete, and Batch, the lambda's data parameter (null
  /// when unnamed), is bound to its `hpp::Span<T>`.
  clang::QualType BatchElement;
  const clang::ParmVarDecl *Batch = nullptr;

  /// The name of the construct in messages and comments.
  llvm::StringRef what() const { return constructName(Kind); }
  /// The request for \p Call, a parallelFor call with body \p LE, or
  /// std::nullopt after filling \p Err.
  static std::optional<OutlineRequest>
  forParallelFor(const clang::CallExpr *Call, const clang::LambdaExpr *LE,
                 OutlineError &Err);
  /// The request for the Task construction \p Site of type \p TaskType
  /// with body \p LE, or std::nullopt after filling \p Err.
  static std::optional<OutlineRequest> forTask(const clang::Expr *Site,
                                               clang::QualType TaskType,
                                               const clang::LambdaExpr *LE,
                                               const clang::ASTContext &Ctx,
                                               OutlineError &Err);
  /// The request for the consumer \p LE of the executeWith call \p Call,
  /// or std::nullopt after filling \p Err.
  static std::optional<OutlineRequest> forConsumer(const clang::CallExpr *Call,
                                                   const clang::LambdaExpr *LE,
                                                   OutlineError &Err);
  /// Sets Dims and LocalDims from the type of \p Range, an hpp::Range, or
  /// returns false after filling \p Err.
  bool setRange(const clang::Expr *Range, OutlineError &Err);
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_OUTLINEREQUEST_H
