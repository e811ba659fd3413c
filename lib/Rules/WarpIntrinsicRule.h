//===- WarpIntrinsicRule.h - Warp intrinsics -> hpp:: ops -------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_WARPINTRINSICRULE_H
#define HPP_REWRITE_LIB_RULES_WARPINTRINSICRULE_H

#include "Framework/TransformerRule.h"

namespace hpp {
namespace rewrite {

/// In device code, calls of the CUDA warp intrinsics `__shfl_sync`,
/// `__shfl_up_sync`, `__shfl_down_sync`, `__shfl_xor_sync`,
/// `__ballot_sync`, `__any_sync`, `__all_sync` and `__activemask` call the
/// runtime's `hpp::shflSync`, ..., `hpp::activeMask` in a kernel that runs
/// at the device's width, and `hpp::warp32::shflSync`, ... (CUDA's 32-lane
/// semantics on every target) in one that keeps 32-lane warps
/// (lib/Analysis/WidthModel.h; the table: WarpIntrinsics.def): only the callee
/// changes, the arguments (the shuffle width too) stay. hpp-lane-mask
/// widens the masks of the former. The dialect's warp collectives
/// (hpp::warpReduce & co.: Dialect/Collectives.def) call the runtime's
/// hpp::warp32:: forms in a kernel that keeps 32-lane warps, and stay
/// otherwise. A call whose name is spelled inside a macro cannot be
/// rewritten: an error (the adapter's macro guard).
class WarpIntrinsicRule : public TransformerRule {
public:
  WarpIntrinsicRule(llvm::StringRef Name, RuleContext &Ctx);
};

} // namespace rewrite
} // namespace hpp

#endif
