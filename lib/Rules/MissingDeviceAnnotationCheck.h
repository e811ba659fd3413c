//===- MissingDeviceAnnotationCheck.h ---------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_MISSINGDEVICEANNOTATIONCHECK_H
#define HPP_REWRITE_LIB_RULES_MISSINGDEVICEANNOTATIONCHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// A lambda passed to parallelFor, a Task's lambda and a Channel's consumer
/// lambda must be marked `__device(hpp)`.
class MissingDeviceAnnotationCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
};

} // namespace rewrite
} // namespace hpp

#endif
