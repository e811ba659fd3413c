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
/// error: portable device code does not recurse. Function pointers are
/// followed conservatively: an indirect call in device code may call every
/// device function of its type whose address device code takes.
class RecursiveDeviceFunctionCheck : public Rule {
public:
  using Rule::Rule;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override;
};

} // namespace rewrite
} // namespace hpp

#endif
