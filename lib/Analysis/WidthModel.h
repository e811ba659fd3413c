//===- WidthModel.h - One warp-width decision per kernel --------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Decides, once for each kernel, how its warp code runs on a 64-lane AMD
/// wavefront; the warp rules query the decision and never re-derive it
/// expression by expression (docs/width-model.md).
///
/// The unit of decision is a *component*: a device root (a parallelFor body,
/// a `__device(hpp)` function or lambda) together with every device function
/// it reaches that is warp code, and joined with every other root that
/// reaches one of those functions (a function is compiled once, so its
/// callers must agree). A function with nothing of the width in it or in
/// its callees (WidthFacts.h: no warp operation, width, mask or fact) is
/// rewritten the same for any caller and joins none.
///
///  - Logical32: each 32-lane half of a wavefront is one warp. The CUDA
///    intrinsics become `hpp::warp32::` operations with CUDA's semantics
///    for a 32-lane warp, masks stay 32-bit, every literal stays. This is
///    what the CPU reference runtime does with CUDA-spelled code (a 32-bit
///    mask names the caller's 32-lane half), so the output means what the
///    input means at every width. When such a component also uses the real
///    width (`warpSize`, `MVECTOR_SIZE`, a 64-bit mask), those uses are
///    narrowed to the logical warp (32), with a remark: the code mixes the
///    two and is right only with one width throughout.
///  - Native: the device's own width. Chosen only for a component that uses
///    the real width and has no 32-lane fact the tool cannot widen: no
///    literal 16, 31, 32, 0x1f, `>> 5`, `32.f`, no `__clz`, no partial mask
///    literal, and every lane mask lives where hpp-lane-mask can retype it.
///    Masks are widened to `hpp::LaneMask`, `warpSize` is the device's.
///  - AsWritten: a component with 64-bit masks (`~0ull`: code written for
///    the dialect's whole mvector) and 32-lane facts runs each operation as
///    its mask says, exactly as the reference runtime does.
/// Once one component narrows `warpSize`, every component of the file that
/// uses the real width keeps 32-lane warps too (per-warp data crosses
/// kernels through memory).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_WIDTHMODEL_H
#define HPP_REWRITE_LIB_ANALYSIS_WIDTHMODEL_H

#include "Analysis/WidthFacts.h"
#include "hpp-rewrite/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

class DeviceCallGraph;

/// The decision for one component.
struct WidthDecision {
  WarpModel Model = WarpModel::Logical32;
  /// The first use of the real width (`warpSize`, `MVECTOR_SIZE`, a 64-bit
  /// mask); invalid when there is none.
  WidthFact RealWidth;
  /// The first 32-lane fact that keeps the component on Logical32; invalid
  /// when there is none.
  WidthFact ThirtyTwo;
  /// A warp intrinsic of the component takes a 64-bit mask.
  bool WideMask = false;
  /// A function of the component that nothing of the device code calls
  /// (a parallelFor body, a `__device(hpp)` function): a kernel.
  struct Root {
    const clang::FunctionDecl *Function;
    /// The first use of the real width in the code it reaches; invalid when
    /// there is none.
    WidthFact RealWidth;
  };
  /// The component took facts from other sources' components
  /// (WidthModel's ExternalWidths).
  bool Joined = false;
  /// RealWidth is another source's: this source has no use of the real
  /// width in the component.
  bool RealWidthElsewhere = false;
  /// The component would run at the device's width and keeps 32-lane warps
  /// by the program's rule (another kernel's 32-lane fact).
  bool ProgramNarrowed = false;
  /// For a ProgramNarrowed component, when a component of the program runs
  /// as written (with the device's warp width): that component's 32-lane
  /// fact (its location invalid, and What `file:line:col: what`, when it
  /// is in another source). Empty What otherwise.
  WidthFact BesideAsWritten;
  /// The component's roots, in discovery order.
  llvm::SmallVector<Root, 2> Roots;
  /// The launches of its kernels whose block the tool could not evaluate
  /// (LaunchFacts.h), as expansion locations.
  llvm::SmallVector<clang::SourceLocation, 1> UnknownBlocks;
  /// True when the component uses the real width but keeps 32-lane warps:
  /// its real-width uses become the logical warp width.
  bool narrows() const {
    return Model == WarpModel::Logical32 && RealWidth.Loc.isValid();
  }
};

/// The width decisions of a translation unit's device code.
class WidthModel {
public:
  /// With \p Program (the tool's second passes: RewriteOptions'
  /// ExternalNarrowing, ExternalWidths, ExternalAsWritten), the decisions
  /// take what the program's other sources found: a 32-lane fact of another
  /// source narrows every component that would run at the device's width,
  /// as one of this file does; a component that holds a function of a
  /// project header takes the facts other sources' components found for it
  /// (a function is compiled once, so its callers in every source are one
  /// component); a component of another source that runs as written is
  /// named to the components narrowed here.
  WidthModel(clang::ASTContext &Ctx, const DeviceCallGraph &Graph,
             const RewriteOptions *Program = nullptr);

  /// The decision for the device code at \p Loc (any location in a root's
  /// or device function's body, as written); a Logical32 decision with no
  /// facts for a location outside device code (what device code is:
  /// DeviceCodeMap::contains, lib/Analysis/DeviceCodeMap.h).
  const WidthDecision &at(clang::SourceLocation Loc) const;
  /// The decision for the device function or lambda call operator \p FD.
  const WidthDecision &of(const clang::FunctionDecl *FD) const;
  /// Every component's decision, in discovery order.
  llvm::ArrayRef<WidthDecision> decisions() const { return Decisions; }
  /// The facts of the component of each function of a project header
  /// that is warp code, by the function's place (`FILE:LINE:COL`): what
  /// the other sources that include the header must take into account.
  std::map<std::string, SharedWidthFacts> headerWidths() const;
  /// The 32-lane fact of this file that keeps every kernel that uses the
  /// real width on 32-lane warps (the first in the file); null when none.
  const WidthFact *narrowing() const {
    return Narrowing.Loc.isValid() ? &Narrowing : nullptr;
  }
  /// The first 32-lane fact of a component of this file that runs as
  /// written; null when none.
  const WidthFact *asWritten() const {
    return AsWritten.Loc.isValid() ? &AsWritten : nullptr;
  }
  /// Whether a component was narrowed by the program's rule.
  bool narrowsByProgram() const {
    for (const WidthDecision &D : Decisions)
      if (D.ProgramNarrowed)
        return true;
    return false;
  }

private:
  struct BodyRange {
    clang::SourceLocation Begin, End; ///< expansion locations
    unsigned Component; ///< a function's index while the model is built
  };
  unsigned find(unsigned X);
  /// The innermost body that holds \p Loc, or null.
  const BodyRange *bodyAt(clang::SourceLocation Loc) const;

  clang::ASTContext &Ctx;
  std::vector<WidthDecision> Decisions;
  /// Union-find over the functions (patterns) of device code.
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> Index;
  std::vector<unsigned> Parent;
  /// The component of each function, by its Index.
  std::vector<unsigned> UnitComponent;
  std::vector<BodyRange> Bodies;
  /// Each component's facts as text (its own and other sources').
  std::vector<SharedWidthFacts> Shared;
  /// The functions of project headers that are warp code: their places
  /// and components.
  std::vector<std::pair<std::string, unsigned>> HeaderFunctions;
  WidthDecision None;
  WidthFact Narrowing;
  /// The first 32-lane fact of a component of the program that runs as
  /// written; empty What when there is none.
  WidthFact AsWritten;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_WIDTHMODEL_H
