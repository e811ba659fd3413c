//===- DeviceCode.h - Recognising device code -------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Helpers that recognise the dialect in the AST: the `__device(kind)`
/// annotation (which the dialect header turns into
/// `annotate("hpp.device.<kind>")` while the tool parses), the dialect
/// namespace, and the source text around them.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_DEVICECODE_H
#define HPP_REWRITE_LIB_DIALECT_DEVICECODE_H

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>

namespace hpp {
namespace rewrite {

/// The `__device(Kind)` annotation on \p D or its redeclarations, if any.
const clang::AnnotateAttr *getDeviceAnnotation(const clang::Decl *D,
                                               llvm::StringRef Kind = "hpp");

/// True when lambda \p LE is written inside a `__device(hpp)` function
/// (directly or through enclosing lambdas): device code, where no kernel
/// can be launched (HIP has no launch from device code).
bool isInsideDeviceFunction(const clang::LambdaExpr *LE);

/// Why values of type \p T cannot pass between host and device memory as
/// a Task's results or a channel's elements do (copied byte for byte, made
/// and assigned in device code): it is not trivially copyable
/// (std::string, std::vector, std::pair in libstdc++). std::nullopt when
/// they can, or when \p T is dependent or void.
std::optional<std::string> deviceValueProblem(clang::QualType T,
                                              const clang::ASTContext &Ctx);

/// True when \p Loc is in a header of the dialect or of the runtime (a
/// file under a directory `hpp/` that holds `hpp.h` or `runtime.h`): the
/// CUDA spellings they define in the global namespace (`__shfl_sync`,
/// `__popc`, `atomicAdd`, `get_global_id`) are device code on every target.
bool isInDialectHeader(clang::SourceLocation Loc,
                       const clang::SourceManager &SM);

/// True when \p D is declared in namespace ::hpp (the dialect API).
bool isDialectAPI(const clang::Decl *D);

/// The `__device(...)` invocation \p A came from: the macro call itself,
/// found through the macro arguments that carried its expansion (in
/// `WRAP([](int v) __device(hpp) {...})` the invocation inside the argument,
/// not WRAP's parameter). File locations when the file holds that text
/// (directly or inside a macro's argument); locations in a macro's
/// expansion when that macro's own body writes it.
clang::CharSourceRange annotationInvocation(const clang::AnnotateAttr *A,
                                            const clang::SourceManager &SM);

/// The `__device(hpp)` text \p A came from, as an edit would take it: the
/// file range of annotationInvocation() when there is one (the use of a
/// macro whose whole body is `__device(hpp)` included); else the
/// invocation inside the macro's expansion, which no edit can take.
clang::CharSourceRange annotationRange(const clang::AnnotateAttr *A,
                                       const clang::SourceManager &SM);

/// Source text of \p Range as written.
std::string sourceText(clang::CharSourceRange Range,
                       const clang::SourceManager &SM,
                       const clang::LangOptions &LO);

/// Matches declarations carrying `__device(hpp)`.
AST_MATCHER(clang::Decl, hasDeviceAnnotation) {
  return getDeviceAnnotation(&Node) != nullptr;
}

/// Matches lambdas marked `__device(hpp)` (on their call operator).
AST_MATCHER(clang::LambdaExpr, isDeviceLambda) {
  return getDeviceAnnotation(Node.getCallOperator()) != nullptr;
}

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_DEVICECODE_H
