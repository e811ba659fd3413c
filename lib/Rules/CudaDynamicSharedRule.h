//===- CudaDynamicSharedRule.h - extern __shared__ arrays -------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_CUDADYNAMICSHAREDRULE_H
#define HPP_REWRITE_LIB_RULES_CUDADYNAMICSHAREDRULE_H

#include "Framework/TransformerRule.h"

namespace hpp {
namespace rewrite {

/// Port mode: the dynamic shared array of a kernel, `extern __shared__ T
/// name[];` declared in a function, becomes `T *const name =
/// hpp::dynamicShared<T>();` (runtime/hpp/cuda_api.h): the launch's shared
/// bytes, aligned to 16 bytes at least, on nvcc, hipcc and the CPU backend,
/// which has no `extern __shared__`. Its uses are unchanged (an array and a
/// pointer to its first element index alike). One at namespace scope, or
/// several in one declaration, is refused: declare it in each function
/// that uses it.
class CudaDynamicSharedRule : public TransformerRule {
public:
  CudaDynamicSharedRule(llvm::StringRef Name, RuleContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;

private:
  /// Reports the declarations the rewrite leaves (TransformerRule::Guard).
  struct RefusalCallback : clang::ast_matchers::MatchFinder::MatchCallback {
    explicit RefusalCallback(CudaDynamicSharedRule &Self) : Self(Self) {}
    void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
    CudaDynamicSharedRule &Self;
  } Refusals{*this};
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_CUDADYNAMICSHAREDRULE_H
