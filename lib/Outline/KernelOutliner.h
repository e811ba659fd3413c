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
/// Each kind of request (OutlineRequest.h) has its own function, which
/// adds the kind's parameters and text around the steps every kind shares:
/// the captures (KernelCaptures.cpp), the scope the kernel leaves (its
/// template parameters, insertion point, constants, KernelConstants.cpp),
/// the index, and the text (KernelText.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_KERNELOUTLINER_H
#define HPP_REWRITE_LIB_OUTLINE_KERNELOUTLINER_H

#include "Outline/OutlineError.h"
#include "Outline/OutlineRequest.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

/// The pieces the outlining phase inserts and replaces.
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
struct KernelDraft;

/// Outlines one lambda: a parallelFor body, a Task body or a Channel
/// consumer.
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
  /// and returns std::nullopt; an invalid Err.Loc means that the failure
  /// was reported already (by a check: a capture of host memory by
  /// reference, a channel write bound that cannot be computed).
  std::optional<OutlinedKernel>
  outline(const OutlineRequest &Req, llvm::StringRef Name,
          const clang::tooling::Replacements &BodyEdits,
          llvm::function_ref<std::string(clang::SourceRange)> EditedText,
          OutlineError &Err) const;

private:
  /// The kernel of each kind of request: the kind's parameters, then the
  /// shared steps, then the kind's text.
  std::optional<OutlinedKernel> outlineParallelFor(KernelDraft &D,
                                                   OutlineError &Err) const;
  std::optional<OutlinedKernel> outlineTask(KernelDraft &D,
                                            OutlineError &Err) const;
  std::optional<OutlinedKernel> outlineConsumer(KernelDraft &D,
                                                OutlineError &Err) const;

  /// The shared steps, in the order the kind functions call them.
  /// The BoundDistArray parameter of a request that has one (a
  /// parallelFor's or a consumer's).
  bool addBound(KernelDraft &D, OutlineError &Err) const;
  /// The captures: a parameter and a launch argument each, the barriers'
  /// bindings (KernelCaptures.cpp).
  bool addCaptures(KernelDraft &D, OutlineError &Err) const;
  /// What the kernel repeats of the scope it leaves: the template
  /// parameters, the insertion point, the constants, the class members it
  /// qualifies and the local declarations.
  bool leaveScope(KernelDraft &D, OutlineError &Err) const;
  /// The index's type and name, and its initialisation from the range.
  void declareIndex(KernelDraft &D, OutlineError &Err) const;
  /// The kernel's text, its launch expression, where it goes and what it
  /// copies.
  std::optional<OutlinedKernel> finish(const KernelDraft &D,
                                       OutlineError &Err) const;

  /// \p T as the kernel spells it (KernelText.h).
  std::optional<std::string>
  typeName(clang::QualType T, bool AddConst, clang::SourceLocation Loc,
           OutlineError &Err,
           llvm::function_ref<std::string()> AsTemplate = nullptr) const;
  /// Declares in the kernel the constants \p LE's body reads without
  /// capturing them: as values where the source text alone fixes them;
  /// otherwise as parameters the launch passes (\p Params, \p Args), or,
  /// where the body needs a constant expression, by repeating their
  /// initialisers (whose ranges go to \p Copied). \p Before is where the
  /// kernel goes (KernelConstants.cpp).
  bool declareConstants(const clang::LambdaExpr *LE,
                        clang::SourceLocation Before,
                        std::vector<std::string> &Params, std::string &Args,
                        std::string &Prologue,
                        std::vector<clang::CharSourceRange> &Copied,
                        OutlineError &Err) const;

  clang::ASTContext &Ctx;
  const LineDirectives *Lines;
  const ConditionalBlocks *Blocks;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_KERNELOUTLINER_H
