//===- HostReferenceCaptureCheck.h ------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_HOSTREFERENCECAPTURECHECK_H
#define HPP_REWRITE_LIB_RULES_HOSTREFERENCECAPTURECHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// A parallelFor, Task or Channel consumer lambda may capture by reference
/// only device-visible objects (Pointer, Atomic in allocated memory,
/// Barrier, Channel); anything else would be a host address inside the
/// kernel.
class HostReferenceCaptureCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
};

} // namespace rewrite
} // namespace hpp

#endif
