//===- LaneAssumptionRule.h - 32-lane arithmetic -> the warp width ---------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_LANEASSUMPTIONRULE_H
#define HPP_REWRITE_LIB_RULES_LANEASSUMPTIONRULE_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// 32-lane arithmetic -> the warp width (being written: issue 3).
class LaneAssumptionRule : public Rule {
public:
  using Rule::Rule;
};

} // namespace rewrite
} // namespace hpp

#endif
