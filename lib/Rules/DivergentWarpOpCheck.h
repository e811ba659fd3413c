//===- DivergentWarpOpCheck.h - Divergent warp collectives ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_DIVERGENTWARPOPCHECK_H
#define HPP_REWRITE_LIB_RULES_DIVERGENTWARPOPCHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Warns about a warp collective (shuffle, vote, ballot, __activemask,
/// __syncwarp) in device code that only part of a warp may reach: lexically
/// under an if / ?: / && / || / switch / loop whose condition depends on
/// the work-item id, or after a `return` taken under such a condition. On
/// AMD every active lane of the wavefront must take part.
class DivergentWarpOpCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace rewrite
} // namespace hpp

#endif
