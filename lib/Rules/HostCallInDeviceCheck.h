//===- HostCallInDeviceCheck.h ----------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_HOSTCALLINDEVICECHECK_H
#define HPP_REWRITE_LIB_RULES_HOSTCALLINDEVICECHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Device code may call only __device(hpp) functions, inline functions,
/// templates, builtins and the dialect API; anything else is an error naming
/// the callee.
class HostCallInDeviceCheck : public Rule {
public:
  using Rule::Rule;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override;
};

} // namespace rewrite
} // namespace hpp

#endif
