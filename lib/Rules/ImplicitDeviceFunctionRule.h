//===- ImplicitDeviceFunctionRule.h ----------------------------------*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_IMPLICITDEVICEFUNCTIONRULE_H
#define HPP_REWRITE_LIB_RULES_IMPLICITDEVICEFUNCTIONRULE_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Inline functions and templates of the main file that device code calls
/// get `__host__ __device__` (`__device__` when they run collectives),
/// which nvcc and hipcc require.
class ImplicitDeviceFunctionRule : public Rule {
public:
  using Rule::Rule;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override;
};

} // namespace rewrite
} // namespace hpp

#endif
