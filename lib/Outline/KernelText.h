//===- KernelText.h - How an outlined kernel spells its pieces --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pieces of text an outlined kernel is assembled from
/// (KernelOutliner.h): a type as the kernel, at namespace scope, spells it;
/// a constant's value as C++ source; the body with the edits made inside
/// it and its `#line` directive kept; the signature, wrapped as
/// clang-format's LLVM style wraps it.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_KERNELTEXT_H
#define HPP_REWRITE_LIB_OUTLINE_KERNELTEXT_H

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

class LineDirectives;

/// \p T as the kernel spells it (`const` first when \p AddConst), or
/// std::nullopt after filling \p Err (at \p Loc) when the kernel cannot
/// name it. A type that names a public class member, or that only the
/// launch knows, cannot be spelled before the class: \p AsTemplate, when
/// given, makes a kernel template parameter that the launch sets, and
/// returns its name.
std::optional<std::string>
kernelTypeName(const clang::ASTContext &Ctx, clang::QualType T, bool AddConst,
               clang::SourceLocation Loc, OutlineError &Err,
               llvm::function_ref<std::string()> AsTemplate = nullptr);

/// The value of constant \p VD as C++ source, if it is an integer,
/// enumerator, bool or floating-point constant (a float exactly, in
/// hexadecimal).
std::optional<std::string> constantText(const clang::ASTContext &Ctx,
                                        const clang::VarDecl *VD);

/// The body of \p LE with \p BodyEdits (relative to its `{`) applied,
/// re-indented so that its closing brace sits at the kernel's indent. With
/// \p Lines, the body's range is marked as re-emitted behind its own
/// directive, and the edits keep its lines (LineDirectives::synced).
std::string bodyText(const clang::ASTContext &Ctx, const LineDirectives *Lines,
                     const clang::LambdaExpr *LE,
                     const clang::tooling::Replacements &BodyEdits);

/// \p Head, the comma-separated \p Params and \p Tail on one line when
/// they fit in 80 columns; otherwise wrapped as clang-format's LLVM style
/// does, continuation lines aligned after the open parenthesis.
std::string wrapSignature(const std::string &Head,
                          const std::vector<std::string> &Params,
                          llvm::StringRef Tail);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_KERNELTEXT_H
