//===- TiledPartitionWidthCheck.h - Tiles wider than 32 ---------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_TILEDPARTITIONWIDTHCHECK_H
#define HPP_REWRITE_LIB_RULES_TILEDPARTITIONWIDTHCHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Warns about `cooperative_groups::tiled_partition<N>` and
/// `thread_block_tile<N>` with N > 32 in the main file (through any alias
/// of the namespace, declared by the SDK or by the runtime header): warps
/// are 32 wide on NVIDIA and RDNA. A literal N gets a fix-it to
/// MVECTOR_MIN; a note suggests hpp::getWarpSize() for run-time widths.
class TiledPartitionWidthCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void check(llvm::StringRef Name,
             llvm::ArrayRef<clang::TemplateArgumentLoc> Args,
             clang::ASTContext &AST);
};

} // namespace rewrite
} // namespace hpp

#endif
