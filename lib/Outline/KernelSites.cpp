//===- KernelSites.cpp - The lambdas a translation unit outlines ----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Outline/KernelSites.h"

#include "hpp-rewrite/Diagnostics.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace hpp {
namespace rewrite {

bool KernelSites::add(const Site &S) {
  if (!Closed) {
    Sites.push_back(S);
    return true;
  }
  // A rule collected it after the outlining phase started (from
  // onLinesSynced, or from a step of the driver after it).
  Diags.error(S.Expr ? S.Expr->getBeginLoc() : SourceLocation(), S.Rule,
              "internal error: this " + constructName(S.Kind).str() +
                  " was collected after the kernels were outlined, and is "
                  "not outlined; the file is not rewritten (please report "
                  "this, with the input)");
  return false;
}

std::vector<KernelSites::Site> KernelSites::close(const SourceManager &SM) {
  Closed = true;
  std::vector<Site> Out;
  Out.swap(Sites);
  // Kernels are numbered, and emitted, in source order (the matchers
  // reach calls in loops and lambdas after the others).
  llvm::stable_sort(Out, [&](const Site &A, const Site &B) {
    return SM.isBeforeInTranslationUnit(A.Expr->getBeginLoc(),
                                        B.Expr->getBeginLoc());
  });
  return Out;
}

} // namespace rewrite
} // namespace hpp
