//===- ChannelCheck.h - Channels are not lowered yet ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_CHANNELCHECK_H
#define HPP_REWRITE_LIB_RULES_CHANNELCHECK_H

#include "hpp-rewrite/Rule.h"

#include "llvm/ADT/DenseSet.h"

namespace hpp {
namespace rewrite {

/// `hpp::Channel` (spec 1.8) has no lowering yet: every use in the main
/// file (a declaration of that type, a construction, a call of `write`,
/// `executeWith` or any other member) is an error, so that no output keeps
/// a channel that the device runtime cannot run.
class ChannelCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  /// Where an error was given (a declaration and its construction share
  /// a location).
  llvm::DenseSet<clang::SourceLocation> Reported;
};

} // namespace rewrite
} // namespace hpp

#endif
