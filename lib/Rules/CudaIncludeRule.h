//===- CudaIncludeRule.h - CUDA headers -> <hpp/cuda_api.h> -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_CUDAINCLUDERULE_H
#define HPP_REWRITE_LIB_RULES_CUDAINCLUDERULE_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Port mode: each `#include` of a CUDA header (Dialect/CudaHeaders.def)
/// in a rewritten file names the device runtime's header instead
/// (`<hpp/cuda_api.h>`: the same API on nvcc, hipcc and the CPU backend).
/// A CUDA source that includes none (nvcc includes cuda_runtime.h by
/// itself) gets `#include <hpp/cuda_api.h>` before its first line; a host
/// source (`.cpp`) gets it only where it includes a CUDA header.
class CudaIncludeRule : public Rule {
public:
  using Rule::Rule;
  void registerPPCallbacks() override;
  void onEndOfTranslationUnit(clang::ASTContext &) override;

private:
  /// The main file includes a CUDA header, which now names the runtime's.
  bool MainIncludes = false;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_CUDAINCLUDERULE_H
