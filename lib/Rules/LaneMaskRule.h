//===- LaneMaskRule.h - 32-bit lane masks -> hpp::LaneMask ---------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_LANEMASKRULE_H
#define HPP_REWRITE_LIB_RULES_LANEMASKRULE_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// 32-bit lane masks -> hpp::LaneMask (being written: issue 3).
class LaneMaskRule : public Rule {
public:
  using Rule::Rule;
};

} // namespace rewrite
} // namespace hpp

#endif
