//===- CudaVolatileWarpCheck.h - Warp-synchronous volatile code -*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_CUDAVOLATILEWARPCHECK_H
#define HPP_REWRITE_LIB_RULES_CUDAVOLATILEWARPCHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Port mode: warns about warp-synchronous code through volatile memory,
/// the end of a reduction before Volta (`volatile float *s = sdata; s[tid]
/// += s[tid + 32]; s[tid] += s[tid + 16]; ...`, or a `__device__ void
/// warpReduce(volatile int *s, int tid)`): in device code, a write through
/// a pointer to volatile (or a `__shared__` array of volatile elements) at
/// an index that depends on the lane (`x`: the thread index, a variable
/// computed from it, or an integer parameter of a device function) plus an
/// offset, followed by a read through the same pointer at `x` plus another
/// offset, with no barrier between (Rules/WarpBarriers.def, or a call of a
/// function that reaches one): a lane then reads an element another lane
/// writes, which is right only in lockstep, not under independent thread
/// scheduling (Volta and later) nor on the CPU backend. A warning at the
/// write's statement (the first step), a note at the read and one with
/// what to write instead; no edit. Statements are followed in order, both
/// branches of an `if` from the state before it, a loop's body twice (a
/// step per iteration); nested lambdas are not walked.
class CudaVolatileWarpCheck : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_CUDAVOLATILEWARPCHECK_H
