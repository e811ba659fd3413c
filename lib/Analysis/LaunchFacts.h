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
/// The launch's block is one too: a kernel that runs on whole 64-lane
/// wavefronts computes what it computes on 32-lane warps only when its
/// block is whole wavefronts (a multiple of 64 threads: 96 leaves a partial
/// last one, and `blockDim.x / warpSize` drops it) and at least two of them
/// (code that indexes by warp, `sdata[tid + warpSize]`, reads past a block
/// of 64 that is one wavefront but two warps). A block the tool evaluates
/// (literals, constants, local variables through their initialisers and
/// assignments, every arm of a conditional, `dim3(x, y, z)`, template
/// arguments, and a parameter of the launching function through the
/// arguments of its calls, transitively: HostValues.h) and that is not
/// such a block is a 32-lane fact of a kernel that uses the device's width
/// (WidthModel applies it per component). One such value is enough: the
/// kernel keeps 32-lane warps, which is right in any block. Where no value
/// the tool sees is one and some are not seen (read at run time, or
/// passed by a call the tool does not see: the launching function has
/// external linkage, its address is taken, ...), the block is unknown.
///
/// Host code that reads the device's warp size (`prop.warpSize` after
/// cudaGetDeviceProperties, a variable cudaDeviceGetAttribute fills with
/// cudaDevAttrWarpSize) is found here too, with the launches its value
/// reaches, through local variables and the parameters of the functions it
/// is passed to (hostWarpSizeReads, HostWarpSizeReads.cpp): for a kernel
/// that keeps 32-lane warps the host must read 32
/// (lib/Rules/HostWarpSizeRule.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_LAUNCHFACTS_H
#define HPP_REWRITE_LIB_ANALYSIS_LAUNCHFACTS_H

#include "Analysis/WidthFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"

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
  /// The launch's block when whole 64-lane wavefronts run it differently
  /// from 32-lane warps (`a block of 96 threads (...)`); invalid otherwise.
  /// A fact of the kernel only where the kernel uses the device's width: a
  /// kernel without warp code computes the same in any block.
  WidthFact Block;
  /// The tool could not evaluate the launch's block size, or some of the
  /// values it may have (a value read at run time, a call of the launching
  /// function the tool does not see), and none it sees is such a block:
  /// whole wavefronts may differ from 32-lane warps there.
  bool UnknownBlock = false;
  /// For an UnknownBlock, the call the tool does not see, at its function
  /// (`'run' has external linkage: another source may call it`); invalid
  /// for a value read at run time.
  WidthFact UnknownWhy;
};

/// The launches of the translation unit's traversal scope (the rewritten
/// files), instantiations included, each with its facts. Facts are the
/// literal 32, a named integer constant of 32, a shift by 5 (the host's
/// 16, a 16 x 16 block, and 31 are no warp facts there), and, apart, a
/// block that is not whole 64-lane wavefronts or has fewer than two
/// (`<<<g, 96>>>`, `<<<g, 64>>>`, `dim3(96, 2)`; `run(96)` for `void
/// run(int t) { k<<<g, t>>>(); }`, at the call's argument: `a block of 96
/// threads (...) passed to 'run' here`).
std::vector<LaunchFact> launchFacts(clang::ASTContext &Ctx);

/// A read of the device's warp size in host code: `prop.warpSize` (a
/// cudaDeviceProp's field), or a read of a local variable that
/// `cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, dev)` fills.
struct HostWarpSizeRead {
  /// The member expression or the variable's read.
  const clang::Expr *Read;
  /// The launches whose configuration or arguments are computed from it:
  /// of its function, through local variables' initialisers and
  /// assignments, and of the functions it is passed to, through their
  /// parameters (transitively, in the translation unit).
  llvm::SmallVector<const clang::CUDAKernelCallExpr *, 2> Launches;
  /// Its value is only printed (an argument of a variadic function such
  /// as printf, or of an `operator<<`).
  bool Printed = false;
  /// The first call its value reaches whose callee the tool does not follow
  /// (through a pointer, virtual, defined in another source): that callee
  /// may size launches the tool does not see. Null when there is none.
  const clang::CallExpr *Unfollowed = nullptr;
};

/// The reads of the device's warp size in host function \p Fn's body.
std::vector<HostWarpSizeRead> hostWarpSizeReads(const clang::FunctionDecl *Fn,
                                                clang::ASTContext &Ctx);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_LAUNCHFACTS_H
