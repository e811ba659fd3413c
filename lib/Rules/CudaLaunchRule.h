//===- CudaLaunchRule.h - k<<<...>>>(...) -> hpp::launchCuda ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_CUDALAUNCHRULE_H
#define HPP_REWRITE_LIB_RULES_CUDALAUNCHRULE_H

#include "Framework/TransformerRule.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <string>

namespace hpp {
namespace rewrite {

/// Port mode: a CUDA launch `k<<<grid, block, shared, stream>>>(args)`
/// becomes `hpp::launchCuda(k, grid, block, shared, stream, args)`
/// (runtime/hpp/cuda_api.h), which a plain C++ compiler takes too: the
/// omitted `shared` and `stream` are written as `0`. The arguments convert
/// to the kernel's parameters where the call is written, as `<<<>>>`'s do
/// (`NULL` to a pointer). A kernel template whose arguments the launch
/// deduces is named with them (`k<float>`); in a template, where they
/// depend on its parameters, the launch is refused until they are written.
/// A launch from device code (dynamic parallelism, which HIP lacks) is
/// refused. A launch written whole by a macro's body (`#define LAUNCH(L)
/// k<T, L><<<g, b>>>(...)`) is rewritten in the macro's definition, once,
/// when every expansion needs the same edits; a launch that a macro's
/// arguments write in part is refused (no one text holds it).
class CudaLaunchRule : public TransformerRule {
public:
  CudaLaunchRule(llvm::StringRef Name, RuleContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;

private:
  /// TransformerRule::Guard::Leave: a refused launch, or one whose macro's
  /// definition an earlier expansion edited already.
  bool leave(const clang::ast_matchers::MatchFinder::MatchResult &R);

  /// The edits made to macro definitions, by the definition's place of the
  /// launch's kernel: every expansion must need the same (signature()).
  std::map<unsigned, std::string> MacroEdits;
  /// Launches whose expansion needed other edits than the definition got.
  llvm::SmallPtrSet<const clang::Stmt *, 4> Disagreeing;

  /// Reports the launches the rewrite leaves (TransformerRule::Guard).
  struct RefusalCallback : clang::ast_matchers::MatchFinder::MatchCallback {
    explicit RefusalCallback(CudaLaunchRule &Self) : Self(Self) {}
    void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
    CudaLaunchRule &Self;
  } Refusals{*this};
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_CUDALAUNCHRULE_H
