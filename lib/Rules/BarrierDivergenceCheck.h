//===- BarrierDivergenceCheck.h - Barrier waits in divergent code -*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_BARRIERDIVERGENCECHECK_H
#define HPP_REWRITE_LIB_RULES_BARRIERDIVERGENCECHECK_H

#include "Analysis/GridSyncUses.h"
#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Warns about a Barrier wait (`b.wait()`, or a call that hands a Barrier
/// to a function, which may wait) that only part of a wavefront may reach,
/// and about a `__gpu_sync` (or a call reaching one) that only part of a
/// work-group may reach.
/// Legal in the dialect and on NVIDIA, where each thread is scheduled
/// independently; on AMD the waiting lanes spin while the other lanes of
/// their wavefront, held back by the branch, can never arrive.
class BarrierDivergenceCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

  void onStartOfTranslationUnit() override { GridSyncs.clear(); }

private:
  GridSyncIndex GridSyncs;
};

} // namespace rewrite
} // namespace hpp

#endif
