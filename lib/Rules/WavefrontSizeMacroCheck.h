//===- WavefrontSizeMacroCheck.h - __AMDGCN_WAVEFRONT_SIZE__ and __GFX9__-style width tests ---------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_WAVEFRONTSIZEMACROCHECK_H
#define HPP_REWRITE_LIB_RULES_WAVEFRONTSIZEMACROCHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// __AMDGCN_WAVEFRONT_SIZE__ and __GFX9__-style width tests (being written: issue 3).
class WavefrontSizeMacroCheck : public Rule {
public:
  using Rule::Rule;
};

} // namespace rewrite
} // namespace hpp

#endif
