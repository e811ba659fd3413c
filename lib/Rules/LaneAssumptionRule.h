//===- LaneAssumptionRule.h - 32-lane arithmetic -> width -------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_LANEASSUMPTIONRULE_H
#define HPP_REWRITE_LIB_RULES_LANEASSUMPTIONRULE_H

#include "Core/DeviceRoots.h"
#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

class LaneId;
struct ShuffleTree;

/// Device code that assumes 32 lanes becomes width-independent: shuffle
/// trees `for (o = 16; o > 0; o >>= 1)` start at `hpp::getWarpSize() / 2`
/// and scans `for (o = 1; o < 32; o *= 2)` stop at `hpp::getWarpSize()`
/// (when the loop variable feeds a shuffle's delta or lane mask, with no
/// fixed shuffle width); `& 31`, `% 32`, `/ 32`, `>> 5` on work-item ids use
/// the width, and so does `lane == 31` on a lane id (`id & 31`, `id % 32`,
/// a variable holding one); per-lane arrays `T a[32]` indexed by a lane get
/// MVECTOR_MAX elements, warp counts `[N / 32]` divide by MVECTOR_MIN. A `[32]`
/// array indexed by the id in another way is reported with a fix-it note.
class LaneAssumptionRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void rewriteShuffleTree(const clang::ForStmt *FS, const ShuffleTree &Tree);
  void rewriteArithmetic(const clang::BinaryOperator *BO, const LaneId &Ids);
  void rewriteArray(const clang::Expr *Size,
                    llvm::ArrayRef<const clang::Expr *> Subscripts,
                    const LaneId &Ids);
  void replace(clang::SourceRange Tokens, llvm::StringRef Text);

  DeviceRoots Roots;
};

} // namespace rewrite
} // namespace hpp

#endif
