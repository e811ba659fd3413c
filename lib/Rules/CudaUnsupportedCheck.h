//===- CudaUnsupportedCheck.h - CUDA that port mode refuses -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_CUDAUNSUPPORTEDCHECK_H
#define HPP_REWRITE_LIB_RULES_CUDAUNSUPPORTEDCHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Port mode: CUDA that no output can keep right on every target is an
/// error at its line, with what to write instead: the functions of
/// Dialect/CudaUnsupported.def (the warp intrinsics without a mask,
/// textures and surfaces). Inline assembly in device code is
/// DeviceConstructCheck's.
class CudaUnsupportedCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_CUDAUNSUPPORTEDCHECK_H
