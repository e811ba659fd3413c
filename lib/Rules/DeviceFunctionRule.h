//===- DeviceFunctionRule.h - __device(hpp) functions -----------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_DEVICEFUNCTIONRULE_H
#define HPP_REWRITE_LIB_RULES_DEVICEFUNCTIONRULE_H

#include "Core/TransformerRule.h"

namespace hpp {
namespace rewrite {

/// `__device(hpp)` on a function declaration becomes `__host__ __device__`
/// (the function stays callable from host code, as in the dialect), or
/// `__device__` when it runs warp intrinsics or work-group collectives,
/// which only device code can; on a lambda nested in device code it is dropped.
class DeviceFunctionRule : public TransformerRule {
public:
  DeviceFunctionRule(llvm::StringRef Name, RuleContext &Ctx);
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_DEVICEFUNCTIONRULE_H
