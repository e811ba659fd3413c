//===- RecursiveDeviceFunctionCheck.h ----------------------------------*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_RECURSIVEDEVICEFUNCTIONCHECK_H
#define HPP_REWRITE_LIB_RULES_RECURSIVEDEVICEFUNCTIONCHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// A cycle in the device call graph (direct or mutual recursion) is an
/// error: portable device code does not recurse.
class RecursiveDeviceFunctionCheck : public Rule {
public:
  using Rule::Rule;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override;
};

} // namespace rewrite
} // namespace hpp

#endif
