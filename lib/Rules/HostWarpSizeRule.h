//===- HostWarpSizeRule.h - MVECTOR_SIZE / warpSize in host code -*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_HOSTWARPSIZERULE_H
#define HPP_REWRITE_LIB_RULES_HOSTWARPSIZERULE_H

#include "hpp-rewrite/Rule.h"
#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace hpp {
namespace rewrite {

struct WidthUse;
struct WidthRegion;
struct WidthDecision;

/// In host code the mvector width is a run-time value (HIP has no
/// compile-time wavefront size on the host), spec 1.5 and 3.2:
///  - a call statement whose explicit template arguments use the width,
///    `f<MVECTOR_SIZE / 4>(args);`, becomes the guard-plus-dispatch
///    `if constexpr (hpp::getMaxWarpSize() == 32) f<32 / 4>(args); else if
///    (hpp::getWarpSize(hpp::getDevice()) == 32) f<32 / 4>(args); else
///    f<64 / 4>(args);` (CUDA builds instantiate only 32);
///  - any other run-time use becomes `hpp::getWarpSize(hpp::getDevice())`;
///  - a use that must be a constant elsewhere (array bound, constexpr
///    variable, `if constexpr`, static_assert, case label, a template
///    argument outside a call statement), also through a `const` variable
///    initialised with the width, makes the statements of its block from
///    there to the last that uses what they declare run once per width:
///    `hpp::withWarpSize([&](auto hppWarp) { ... });`, the width there
///    `decltype(hppWarp)::value` (WidthRegions.h); statements that cannot
///    run inside a lambda are an error with a note;
///  - a use in the initialiser of a variable or member outside every
///    function is an error;
///  - a use in a host function's default argument is a run-time use;
///  - in the range or init-captures of a launch whose kernel keeps 32-lane
///    warps while reading the width (WidthModel narrows it), the width is
///    `hpp::warp32::size`, as in the kernel; other uses of the device's
///    width in that function get a warning.
/// Port mode: a read of the device's warp size (`prop.warpSize`, a
/// variable cudaDeviceGetAttribute fills with cudaDevAttrWarpSize) whose
/// value sizes only launches of kernels that keep 32-lane warps becomes
/// `hpp::warp32::size` (a remark); one that the tool cannot tie to such
/// launches alone, in a file whose kernels keep 32-lane warps, is a
/// warning. A launch of a kernel that runs on whole wavefronts whose block
/// size the tool cannot evaluate is a warning (LaunchFacts.h).
class HostWarpSizeRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
  void onEndOfTranslationUnit(clang::ASTContext &AST) override;

private:
  struct NarrowLaunch {
    clang::SourceRange HostPart; ///< From the call to the body's `{`.
    const WidthDecision *Kernel;
  };
  std::vector<NarrowLaunch> narrowLaunches(const clang::Stmt *Body,
                                           clang::ASTContext &AST);
  void warnNarrowMismatch(const WidthUse &U,
                          llvm::ArrayRef<NarrowLaunch> Narrow,
                          const clang::SourceManager &SM);
  void noteThirtyTwo(const WidthDecision &K, const clang::SourceManager &SM);
  void checkDeviceWarpSize(const clang::FunctionDecl *Fn,
                           clang::ASTContext &AST);
  void reportThroughConstant(const WidthUse &U);
  void reportInMacro(const WidthUse &U, clang::ASTContext &AST);
  void dispatchRegion(const WidthRegion &R, const clang::SourceManager &SM);
  void checkGlobal(const clang::DeclaratorDecl *D, clang::ASTContext &AST);
  void checkDefaultArgument(const clang::ParmVarDecl *P,
                            clang::ASTContext &AST);
};

} // namespace rewrite
} // namespace hpp

#endif
