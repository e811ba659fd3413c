//===- ImplicitDeviceFunctionRule.h ----------------------------------*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_IMPLICITDEVICEFUNCTIONRULE_H
#define HPP_REWRITE_LIB_RULES_IMPLICITDEVICEFUNCTIONRULE_H

#include "hpp-rewrite/Rule.h"

#include "llvm/ADT/DenseSet.h"

namespace hpp {
namespace rewrite {

/// Inline functions and templates of the main file that device code calls
/// get `__host__ __device__` (`__device__` when they run collectives),
/// which nvcc and hipcc require; one a macro defines gets them before the
/// macro's invocation. One that cannot get them (defined in a header, or by
/// a macro together with other code) is an error at each call.
class ImplicitDeviceFunctionRule : public Rule {
public:
  using Rule::Rule;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override;

private:
  /// Where the qualifiers of declaration \p R go, outside any macro;
  /// invalid when nowhere.
  static clang::SourceLocation insertionPoint(const clang::FunctionDecl *R,
                                              const clang::SourceManager &SM,
                                              const clang::LangOptions &LO);
  void reportUnmarkable(const clang::FunctionDecl *Pattern,
                        const clang::SourceManager &SM);
  llvm::DenseSet<const clang::FunctionDecl *> Reported;
};

} // namespace rewrite
} // namespace hpp

#endif
