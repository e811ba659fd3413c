//===- Captures.h - How a parallelFor capture reaches the kernel -*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The captures of a parallelFor lambda, and what kernel parameter each one
/// becomes (or why it cannot become one). In a template pattern clang does
/// not record implicit captures of dependent variables, so they are found by
/// walking the body, in order of first use as clang does.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_CAPTURES_H
#define HPP_REWRITE_LIB_ANALYSIS_CAPTURES_H

#include "clang/AST/ExprCXX.h"

#include <vector>

namespace hpp {
namespace rewrite {

/// What a capture becomes in the outlined kernel.
enum class CaptureKind {
  Value,         ///< by-value copy: a kernel parameter of the same type
  PointerHandle, ///< Pointer<T> captured by reference: passed by value
  AtomicRef,     ///< reference to an Atomic<T> (in device memory): a pointer
  BarrierRef,    ///< reference to a Barrier: its handle, bound in the kernel
  ChannelRef,    ///< reference to a Channel: the launch's writer
  HostReference, ///< by-reference capture of host memory: rejected
  This,          ///< `this`: rejected
  Unsupported    ///< arrays, VLAs, structured bindings: rejected
};

/// One captured entity of a lambda.
struct Capture {
  const clang::ValueDecl *Var = nullptr; ///< null for `this` and VLAs
  bool ByRef = false;
  bool Implicit = false;
  bool IsThis = false;
  clang::SourceLocation Loc; ///< the capture, or the first use if implicit
  CaptureKind Kind = CaptureKind::Unsupported;
};

/// Every capture of \p LE, explicit ones first, then implicit ones in order
/// of first use.
std::vector<Capture> collectCaptures(const clang::LambdaExpr *LE);

/// The enclosing function's locals \p LE's body names without capturing
/// them (constants read by value, e.g. `const int N = 8;`, are not
/// odr-used), and the static locals it reads (in a template too, where
/// collectCaptures reports the others): the outlined kernel must declare
/// them itself.
std::vector<const clang::VarDecl *>
uncapturedConstants(const clang::LambdaExpr *LE);

/// True when \p T (references stripped) is hpp::Pointer<...>.
bool isDialectPointer(clang::QualType T);
/// True when \p T (references stripped) is hpp::Atomic<...>.
bool isDialectAtomic(clang::QualType T);
/// True when \p T (references stripped) is hpp::Barrier.
bool isDialectBarrier(clang::QualType T);
/// True when \p T (a reference to it too) is the dialect's class or class
/// template \p Name (`Segment`, `BoundDistArray`, ...), dependent or not.
bool isDialectClass(clang::QualType T, llvm::StringRef Name);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_CAPTURES_H
