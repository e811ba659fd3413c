//===- TiledPartitionWidthCheck.h - tiled_partition wider than the smallest warp ---------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_TILEDPARTITIONWIDTHCHECK_H
#define HPP_REWRITE_LIB_RULES_TILEDPARTITIONWIDTHCHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// tiled_partition wider than the smallest warp (being written: issue 3).
class TiledPartitionWidthCheck : public Rule {
public:
  using Rule::Rule;
};

} // namespace rewrite
} // namespace hpp

#endif
