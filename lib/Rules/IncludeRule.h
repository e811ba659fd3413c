//===- IncludeRule.h - <hpp/hpp.h> becomes <hpp/runtime.h> ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_INCLUDERULE_H
#define HPP_REWRITE_LIB_RULES_INCLUDERULE_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Replaces the dialect header include of the main file with the device
/// runtime's header; refuses dialect code the output would keep as written
/// because it lies in a project header. With --absolute-includes, the
/// main file's quoted includes (and `__has_include`s) of headers beside it
/// name them by their absolute paths.
class IncludeRule : public Rule {
public:
  using Rule::Rule;
  void registerPPCallbacks() override;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_INCLUDERULE_H
