//===- ReservedNameCheck.h - Names the GPU headers declare -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_RESERVEDNAMECHECK_H
#define HPP_REWRITE_LIB_RULES_RESERVEDNAMECHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// A declaration at global scope (`extern "C"` blocks included) of the main
/// file whose name the CUDA or HIP headers of the output declare too
/// (ReservedNames.def: `float2`, `dim3`, `half`, ...) is an error: the
/// program compiles as plain C++, and the rewritten file would not.
class ReservedNameCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
};

} // namespace rewrite
} // namespace hpp

#endif
