//===- TemplateContext.h - Where an outlined kernel goes --------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The template parameters enclosing a parallelFor, Task or Channel consumer
/// body (which the outlined kernel must repeat) and the top-level
/// declaration the kernel is inserted before.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_TEMPLATECONTEXT_H
#define HPP_REWRITE_LIB_OUTLINE_TEMPLATECONTEXT_H

#include "Outline/OutlineError.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"

#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

/// Template parameters and insertion point of one enclosing function.
class TemplateContext {
public:
  /// The context of \p LE, a kernel body whose enclosing function
  /// (through nested lambdas) is \p F, or null outside any function (an
  /// initialiser at namespace or class scope, a default argument).
  TemplateContext(const clang::FunctionDecl *F, const clang::LambdaExpr *LE);

  /// False (with \p Err set) when the kernel cannot repeat the parameters.
  bool ok(OutlineError &Err) const;
  /// `template <class T, int N>\n`, or empty outside templates; with
  /// \p Leading (`bool B`), that parameter comes first (before any pack).
  /// \p Extra parameters (`typename HppCapture0`) follow \p Leading.
  std::string header(llvm::StringRef Leading = "",
                     llvm::ArrayRef<std::string> Extra = {}) const;
  /// `<T, N>`, or empty outside templates; \p Leading (`true`) first, then
  /// \p Extra.
  std::string arguments(llvm::StringRef Leading = "",
                        llvm::ArrayRef<std::string> Extra = {}) const;
  /// Before the top-level declaration holding the lambda, and before its
  /// documentation comment; invalid when there is none (\p Err says why,
  /// naming the construct \p LE is the body of).
  clang::SourceLocation insertionPoint(clang::ASTContext &Ctx,
                                       OutlineError &Err) const;

private:
  const clang::FunctionDecl *F;
  const clang::LambdaExpr *LE;
  std::vector<const clang::NamedDecl *> Params; ///< outermost first
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_TEMPLATECONTEXT_H
