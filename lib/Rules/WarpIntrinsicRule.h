//===- WarpIntrinsicRule.h - CUDA warp intrinsics -> hpp:: warp operations ---------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_WARPINTRINSICRULE_H
#define HPP_REWRITE_LIB_RULES_WARPINTRINSICRULE_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// CUDA warp intrinsics -> hpp:: warp operations (being written: issue 3).
class WarpIntrinsicRule : public Rule {
public:
  using Rule::Rule;
};

} // namespace rewrite
} // namespace hpp

#endif
