//===- HostStateInDeviceCheck.h ---------------------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_HOSTSTATEINDEVICECHECK_H
#define HPP_REWRITE_LIB_RULES_HOSTSTATEINDEVICECHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Device code sees only what a kernel is passed. Reading a variable in
/// host memory (at namespace scope, a static member, a static local) from
/// device code, or capturing an object whose copy runs host code (a
/// `std::vector`, anything not trivially copyable), is an error at the use:
/// the output would fail in nvcc and hipcc, or read a host address.
class HostStateInDeviceCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override;
};

} // namespace rewrite
} // namespace hpp

#endif
