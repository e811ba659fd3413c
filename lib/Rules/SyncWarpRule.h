//===- SyncWarpRule.h - __syncwarp -> cg::tiled_partition sync ---------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_SYNCWARPRULE_H
#define HPP_REWRITE_LIB_RULES_SYNCWARPRULE_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// __syncwarp -> cg::tiled_partition sync (being written: issue 3).
class SyncWarpRule : public Rule {
public:
  using Rule::Rule;
};

} // namespace rewrite
} // namespace hpp

#endif
