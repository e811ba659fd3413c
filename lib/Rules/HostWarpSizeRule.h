//===- HostWarpSizeRule.h - MVECTOR_SIZE / warpSize in host code ---------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_HOSTWARPSIZERULE_H
#define HPP_REWRITE_LIB_RULES_HOSTWARPSIZERULE_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// MVECTOR_SIZE / warpSize in host code (being written: issue 3).
class HostWarpSizeRule : public Rule {
public:
  using Rule::Rule;
};

} // namespace rewrite
} // namespace hpp

#endif
