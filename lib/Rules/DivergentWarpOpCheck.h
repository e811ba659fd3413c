//===- DivergentWarpOpCheck.h - warp collectives under lane-dependent control flow ---------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_DIVERGENTWARPOPCHECK_H
#define HPP_REWRITE_LIB_RULES_DIVERGENTWARPOPCHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// warp collectives under lane-dependent control flow (being written: issue 3).
class DivergentWarpOpCheck : public Rule {
public:
  using Rule::Rule;
};

} // namespace rewrite
} // namespace hpp

#endif
