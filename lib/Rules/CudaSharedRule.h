//===- CudaSharedRule.h - Shared memory declarations ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_CUDASHAREDRULE_H
#define HPP_REWRITE_LIB_RULES_CUDASHAREDRULE_H

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
/// that uses it. A `static __shared__` variable in a function loses its
/// `static`: shared memory is static storage already, and the CPU backend's
/// `__shared__`, which says `static thread_local`, would repeat it (an
/// error for g++).
class CudaSharedRule : public TransformerRule {
public:
  CudaSharedRule(llvm::StringRef Name, RuleContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;

private:
  /// Reports the declarations the rewrite leaves (TransformerRule::Guard).
  struct RefusalCallback : clang::ast_matchers::MatchFinder::MatchCallback {
    explicit RefusalCallback(CudaSharedRule &Self) : Self(Self) {}
    void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
    CudaSharedRule &Self;
  } Refusals{*this};
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_CUDASHAREDRULE_H
