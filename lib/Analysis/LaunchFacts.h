//===- LaunchFacts.h - 32-lane facts of a kernel's launches -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Port mode: host code that sizes a CUDA launch from 32-lane warps
/// (`rows_per_block = threads / 32`, `grid = n * 32 / block`,
/// `k<<<g, 32>>>`) agrees with the kernel only while the kernel's warps have
/// 32 lanes: on a 64-lane wavefront a kernel at the device's width would do
/// half the rows the host counted (the bitsandbytes ROCm bug, HeCBench's
/// gemv). Such a value is a 32-lane fact of the kernel it launches, as
/// one in the kernel's own code is; the width model keeps the kernel on
/// 32-lane warps then, which makes host and device agree with no host
/// edit. lib/Analysis/WidthModel.h asks here.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_LAUNCHFACTS_H
#define HPP_REWRITE_LIB_ANALYSIS_LAUNCHFACTS_H

#include "Analysis/WidthFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <vector>

namespace hpp {
namespace rewrite {

/// One launch of a kernel and the first 32-lane fact of the host values it
/// is launched with (its configuration and its arguments, and the local
/// variables of the launching function they are computed from, through
/// their initialisers); Fact.Loc is invalid when there is none.
struct LaunchFact {
  const clang::CUDAKernelCallExpr *Launch;
  /// The kernel: the launch's callee (in a template, as instantiated).
  const clang::FunctionDecl *Kernel;
  WidthFact Fact;
};

/// The launches of the translation unit's traversal scope (the rewritten
/// files), instantiations included, each with its fact. Facts are the
/// literal 32, a named integer constant of 32, and a shift by 5: the host's
/// 16 (a 16 x 16 block) and 31 are no warp facts there.
std::vector<LaunchFact> launchFacts(clang::ASTContext &Ctx);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_LAUNCHFACTS_H
