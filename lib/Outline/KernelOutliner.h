//===- KernelOutliner.h - Device lambda -> __global__ kernel ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds the text of the `__global__` kernel outlined from a parallelFor,
/// Task or Channel consumer lambda (parameters = captures, body kept as
/// written) and of the kernel expression and capture arguments that
/// replace the lambda. See docs/design.md for the shape.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_KERNELOUTLINER_H
#define HPP_REWRITE_LIB_OUTLINE_KERNELOUTLINER_H

#include "Outline/OutlineError.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

/// What kind of kernel a lambda becomes.
enum class KernelKind {
  ParallelFor, ///< `hpp_f_pfor<k>`, launched where the call was
  Task,        ///< `hpp_f_task<k>`, launched by the Task's enqueue
  Consumer,    ///< `hpp_f_consumer<k>`, launched by a Channel per batch
};

/// One lambda to outline, and the shape of its kernel.
struct OutlineRequest {
  KernelKind Kind = KernelKind::ParallelFor;
  /// The parallelFor call, the Task construction or the executeWith call
  /// (its location names the kernel's origin).
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
  llvm::StringRef what() const {
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
  /// Sets Dims and LocalDims from the type of \p Range, an hpp::Range, or
  /// returns false after filling \p Err.
  bool setRange(const clang::Expr *Range, OutlineError &Err);
  /// The request for the consumer \p LE of the executeWith call \p Call,
  /// or std::nullopt after filling \p Err.
  static std::optional<OutlineRequest> forConsumer(const clang::CallExpr *Call,
                                                   const clang::LambdaExpr *LE,
                                                   OutlineError &Err);
};

/// The pieces the rules insert and replace.
struct OutlinedKernel {
  std::string Definition; ///< the kernel, ending in a blank line
  /// The kernel as its launch names it: `k`, `k<T>`, or a
  /// `hpp::detail::waitOnlyVariants(...)` / `hpp::detail::cooperative(...)`
  /// wrapping.
  std::string KernelExpr;
  /// The capture arguments, each preceded by `, `.
  std::string Arguments;
  clang::SourceLocation InsertAt; ///< before the enclosing top-level decl
  /// For a body inside a class definition: the kernel is declared at
  /// InsertAt (Declaration) and defined after the class, at DefineAt, where
  /// the class's members can be named. Invalid otherwise.
  clang::SourceLocation DefineAt;
  std::string Declaration;
  /// The source text the kernel repeats (its body, the declarations and
  /// initialisers it copies), as main-file character ranges in the order
  /// the kernel has them: the macros they use must mean at the kernel what
  /// they mean there (Outline/MacroRestate.h).
  std::vector<clang::CharSourceRange> Copied;
};

class ConditionalBlocks;
class LineDirectives;

/// Outlines one parallelFor call.
class KernelOutliner {
public:
  /// With \p Lines, each body is preceded by the `#line` directive that
  /// gives it the lambda's lines, and keeps them after its edits. With
  /// \p Blocks, a constant declared in an `#if` block is never copied
  /// (Analysis/ConstantOrigin.h).
  KernelOutliner(clang::ASTContext &Ctx, const LineDirectives *Lines = nullptr,
                 const ConditionalBlocks *Blocks = nullptr)
      : Ctx(Ctx), Lines(Lines), Blocks(Blocks) {}

  /// The function whose body contains \p LE (through nested lambdas).
  static const clang::FunctionDecl *
  enclosingFunction(const clang::LambdaExpr *LE);

  /// Outlines the lambda of \p Req as kernel \p Name.
  /// \p BodyEdits are edits inside the lambda body, relative to its start;
  /// \p EditedText gives the text of a range (an init-capture's
  /// initialiser) with other rules' edits applied. On failure fills \p Err
  /// and returns std::nullopt.
  std::optional<OutlinedKernel>
  outline(const OutlineRequest &Req, llvm::StringRef Name,
          const clang::tooling::Replacements &BodyEdits,
          llvm::function_ref<std::string(clang::SourceRange)> EditedText,
          OutlineError &Err);

private:
  std::string text(clang::SourceRange R) const;
  /// \p T as the kernel spells it. A type that names a public class member
  /// cannot be spelled before the class: \p AsTemplate, when given, makes a
  /// kernel template parameter that the launch sets, and returns its name.
  std::optional<std::string>
  typeName(clang::QualType T, bool AddConst, clang::SourceLocation Loc,
           OutlineError &Err,
           llvm::function_ref<std::string()> AsTemplate = nullptr) const;
  /// The value of constant \p VD as C++ source, if it is an integer,
  /// enumerator, bool or floating-point constant.
  std::optional<std::string> constantText(const clang::VarDecl *VD) const;
  /// Declares in the kernel the constants \p LE's body reads without
  /// capturing them: as values where the source text alone fixes them;
  /// otherwise as parameters the launch passes (\p Params, \p Args), or,
  /// where the body needs a constant expression, by repeating their
  /// initialisers (whose ranges go to \p Copied). \p Before is where the
  /// kernel goes.
  bool declareConstants(const clang::LambdaExpr *LE,
                        clang::SourceLocation Before,
                        std::vector<std::string> &Params, std::string &Args,
                        std::string &Prologue,
                        std::vector<clang::CharSourceRange> &Copied,
                        OutlineError &Err) const;
  std::string bodyText(const clang::LambdaExpr *LE,
                       const clang::tooling::Replacements &BodyEdits) const;
  /// \p Head, the comma-separated \p Params and \p Tail on one line when
  /// they fit in 80 columns; otherwise wrapped as clang-format's LLVM style
  /// does, continuation lines aligned after the open parenthesis.
  static std::string wrapSignature(const std::string &Head,
                                   const std::vector<std::string> &Params,
                                   llvm::StringRef Tail);

  clang::ASTContext &Ctx;
  const LineDirectives *Lines;
  const ConditionalBlocks *Blocks;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_KERNELOUTLINER_H
