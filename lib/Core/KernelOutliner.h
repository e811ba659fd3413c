//===- KernelOutliner.h - parallelFor lambda -> __global__ kernel -*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds the text of the `__global__` kernel outlined from a parallelFor
/// lambda (parameters = captures, body kept as written) and of the checked
/// launch that replaces the call. See docs/design.md for the shape.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_CORE_KERNELOUTLINER_H
#define HPP_REWRITE_LIB_CORE_KERNELOUTLINER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace hpp {
namespace rewrite {

/// Why a lambda could not be outlined, and where.
struct OutlineError {
  clang::SourceLocation Loc;
  std::string Message;
};

/// The pieces the ParallelForRule inserts and replaces.
struct OutlinedKernel {
  std::string Definition; ///< the kernel, ending in a blank line
  /// Replaces `parallelFor(` up to the range: `hpp::launchKernel(k, `.
  std::string LaunchHead;
  /// Replaces the lambda (from the end of the range, or of the DistArray
  /// argument, to the call's `)`): the capture arguments and `)`. The
  /// arguments in between stay in place, with other rules' edits.
  std::string LaunchTail;
  clang::SourceLocation InsertAt; ///< before the enclosing top-level decl
  /// For a body inside a class definition: the kernel is declared at
  /// InsertAt (Declaration) and defined after the class, at DefineAt, where
  /// the class's members can be named. Invalid otherwise.
  clang::SourceLocation DefineAt;
  std::string Declaration;
};

/// Outlines one parallelFor call.
class KernelOutliner {
public:
  KernelOutliner(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The function whose body contains \p LE (through nested lambdas).
  static const clang::FunctionDecl *
  enclosingFunction(const clang::LambdaExpr *LE);

  /// Outlines \p LE, the body argument of \p Call, as kernel \p Name.
  /// \p BodyEdits are edits inside the lambda body, relative to its start;
  /// \p EditedText gives the text of a range (an init-capture's
  /// initialiser) with other rules' edits applied. On failure fills \p Err
  /// and returns std::nullopt.
  std::optional<OutlinedKernel>
  outline(const clang::CallExpr *Call, const clang::LambdaExpr *LE,
          llvm::StringRef Name, const clang::tooling::Replacements &BodyEdits,
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
  std::string bodyText(const clang::LambdaExpr *LE,
                       const clang::tooling::Replacements &BodyEdits) const;

  clang::ASTContext &Ctx;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_CORE_KERNELOUTLINER_H
