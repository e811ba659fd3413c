//===- CudaFpAtomicRule.h - Fast float atomics, cudaMalloc ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_CUDAFPATOMICRULE_H
#define HPP_REWRITE_LIB_RULES_CUDAFPATOMICRULE_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Port mode: in device code, `atomicAdd(p, v)` on a `float` or a `double`
/// becomes `hpp::unsafeAtomicAdd(p, v)` (runtime/hpp/cuda_fp_atomic.h: the
/// hardware's floating-point atomic on AMD, atomicAdd elsewhere) where `p`
/// is `q`, `q + i` or `&q[i]` for a pointer parameter `q` of the kernel
/// that Analysis/CoarseGrained.h knows points to coarse-grained memory
/// (cudaMalloc's at every launch). On AMD the fast atomic is silently
/// dropped on fine-grained memory (host-pinned, managed), so every other
/// such call keeps atomicAdd (hipcc's compare-and-swap loop, right on any
/// memory), with a remark at the call and a note that says why: the launch
/// and argument, the allocation, a template whose pointer type depends on
/// a template parameter, a call a macro writes (never edited), a pointer
/// of a device function's parameter (not followed). An atomic on shared
/// memory (already the hardware's on AMD) is left without a word. Edits
/// and remarks at the end of the translation unit.
class CudaFpAtomicRule : public Rule {
public:
  using Rule::Rule;
  void onEndOfTranslationUnit(clang::ASTContext &AST) override;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_CUDAFPATOMICRULE_H
