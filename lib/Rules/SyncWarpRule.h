//===- SyncWarpRule.h - __syncwarp -> cg::tiled_partition sync --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_SYNCWARPRULE_H
#define HPP_REWRITE_LIB_RULES_SYNCWARPRULE_H

#include "Framework/TransformerRule.h"

namespace hpp {
namespace rewrite {

/// In device code, `__syncwarp()` and `__syncwarp(mask)` become
/// `cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block()).sync()`
/// (never `__syncthreads()`; MVECTOR_MIN and the `cg` alias come from
/// runtime/hpp/warp.h). The mask is dropped: a mask that is not a full-mask
/// literal is reported, because the tile (on AMD the whole wavefront)
/// synchronizes every lane, not the lanes of the mask. A call spelled
/// inside a macro cannot be rewritten: an error (the adapter's macro
/// guard).
class SyncWarpRule : public TransformerRule {
public:
  SyncWarpRule(llvm::StringRef Name, RuleContext &Ctx);

private:
  /// No edit: drops the edits of other rules inside the call (its
  /// arguments go away) and reports a mask that is not the full warp.
  static clang::transformer::EditGenerator dropMask(SyncWarpRule *Self);
};

} // namespace rewrite
} // namespace hpp

#endif
