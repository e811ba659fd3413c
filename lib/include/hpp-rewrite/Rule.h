//===- hpp-rewrite/Rule.h - Base class of rewrite rules ---------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A Rule is one rewrite or check with a stable name (its diagnostic tag),
/// in the spirit of a ClangTidyCheck: it registers AST matchers and/or
/// preprocessor callbacks, reports through RuleDiagnostics and edits through
/// the EditCollector of its RuleContext.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_RULE_H
#define HPP_REWRITE_RULE_H

#include "hpp-rewrite/Diagnostics.h"
#include "hpp-rewrite/EditCollector.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompilerInstance;
} // namespace clang

namespace hpp {
namespace rewrite {

class DeviceCallGraph;
class DeviceCodeMap;
class KernelSites;
class LineDirectives;
class RuleSelection;
class WidthModel;

/// How a component's warp code runs on a 64-lane wavefront
/// (lib/Analysis/WidthModel.h, docs/width-model.md).
enum class WarpModel {
  Logical32, ///< Two 32-lane warps per wavefront: the code as written.
  Native,    ///< The wavefront's own width: masks widened.
  /// Each operation as its mask says, as the reference runtime runs it: a
  /// 32-bit mask's on its 32-lane warp, a 64-bit mask's on the whole
  /// wavefront; `warpSize` the device's. For code that mixes 64-bit masks
  /// with 32-lane facts on purpose.
  AsWritten,
};

/// The width model's rule, in one place: the device's width for a
/// component with the real width (\p RealWidth) and no 32-lane fact
/// (\p ThirtyTwo), as written for one with both and a 64-bit mask
/// (\p WideMask), 32-lane warps otherwise.
inline WarpModel decideWarpModel(bool RealWidth, bool ThirtyTwo,
                                 bool WideMask) {
  return RealWidth && !ThirtyTwo  ? WarpModel::Native
         : RealWidth && WideMask ? WarpModel::AsWritten
                                 : WarpModel::Logical32;
}

/// What a component of the width model knows of the width, as text that
/// crosses translation units: each fact as `FILE:LINE:COL: what`, empty
/// when there is none.
struct SharedWidthFacts {
  std::string RealWidth; ///< the first use of the real width
  std::string ThirtyTwo; ///< the first 32-lane fact
  bool WideMask = false; ///< a warp intrinsic takes a 64-bit mask
  /// The component, numbered in its translation unit (places of one
  /// component share it; merge leaves it).
  unsigned Component = 0;
  /// The model these facts decide.
  WarpModel model() const {
    return decideWarpModel(!RealWidth.empty(), !ThirtyTwo.empty(), WideMask);
  }
  /// Adds \p Other's facts that this lacks; true when something changed.
  bool merge(const SharedWidthFacts &Other) {
    bool Changed = false;
    if (RealWidth.empty() && !Other.RealWidth.empty()) {
      RealWidth = Other.RealWidth;
      Changed = true;
    }
    if (ThirtyTwo.empty() && !Other.ThirtyTwo.empty()) {
      ThirtyTwo = Other.ThirtyTwo;
      Changed = true;
    }
    if (!WideMask && Other.WideMask)
      Changed = WideMask = true;
    return Changed;
  }
};

/// Choices about the output that select no rule (hpp-rewrite's options).
struct RewriteOptions {
  /// `--absolute-includes`: each `#include "..."` and `__has_include("...")`
  /// of the main file that names a file beside it names that file by its
  /// absolute path in the output (the output is compiled from another
  /// directory: a build tree), so that it resolves to the same file.
  bool AbsoluteIncludes = false;
  /// `--root`: the project root, an absolute directory. The headers under
  /// it that the parse does not take as system headers are rewritten with
  /// the main file (Framework/RewriteScope.h); empty: the main file only.
  std::string ProjectRoot;
  /// The project headers are written beside the outputs, mirrored as the
  /// sources are (`--output-dir`): `--absolute-includes` leaves a quoted
  /// include of one as written, so that it finds the rewritten header.
  bool MirroredHeaders = false;
  /// A kernel of another source of the program keeps 32-lane warps (the
  /// tool's second pass; "file:line:col: what", as
  /// RewriteOutput::Narrowing says it): every kernel of this source that
  /// uses the real width does too, as the kernels of one file do
  /// (WidthModel.h). Empty: the source decides alone.
  std::string ExternalNarrowing;
  /// The width facts of other sources' components that hold a function of
  /// a project header, by the function's place (`FILE:LINE:COL`, the
  /// tool's second pass; RewriteOutput::HeaderWidths): a function is
  /// compiled once, so its callers in every source are one component
  /// (WidthModel.h). Empty: the source decides alone.
  std::map<std::string, SharedWidthFacts> ExternalWidths;
  /// The 32-lane fact of a kernel of another source that runs as written,
  /// with the device's warp width ("file:line:col: what", as
  /// RewriteOutput::AsWritten says it): the kernels of this source that
  /// keep 32-lane warps by the program's rule are warned that per-warp
  /// data they exchange with it disagrees. Empty: none.
  std::string ExternalAsWritten;
};

/// What a rule sees of the translation unit being rewritten.
struct RuleContext {
  clang::CompilerInstance &CI;
  RuleDiagnostics &Diags;
  EditCollector &Edits;
  /// Device code reachable from parallelFor bodies and __device(hpp)
  /// functions; built lazily after matching.
  DeviceCallGraph &deviceGraph();
  /// What device code is: its roots and the text they cover
  /// (lib/Analysis/DeviceCodeMap.h; the kinds of roots are
  /// lib/Dialect/DeviceRootKinds.def); built lazily, on the whole
  /// translation unit, at its first query.
  const DeviceCodeMap &deviceCode();
  /// The warp-width decision of each kernel (lib/Analysis/WidthModel.h); built
  /// lazily, on the whole translation unit, at its first query.
  const WidthModel &widthModel();
  /// The parallelFor bodies, Task bodies and Channel consumers to outline
  /// (lib/Outline/KernelSites.h): rules add them until the end of their
  /// onEndOfTranslationUnit; the driver's outlining phase then outlines
  /// them all, and refuses a site added later.
  KernelSites &kernelSites();
  /// Where `#line` directives keep the output's line numbers the input's
  /// (lib/Framework/LineDirectives.h); records from the start of parsing.
  LineDirectives &lines();
  /// The options of the run.
  RewriteOptions Options;

  RuleContext(clang::CompilerInstance &CI, RuleDiagnostics &Diags,
              EditCollector &Edits);
  ~RuleContext();

private:
  std::unique_ptr<DeviceCallGraph> Graph;
  std::unique_ptr<DeviceCodeMap> Code;
  std::unique_ptr<WidthModel> Widths;
  std::unique_ptr<KernelSites> Sites;
  std::unique_ptr<LineDirectives> Lines;
};

/// One rewrite or check.
class Rule : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Rule(llvm::StringRef Name, RuleContext &Ctx) : Name(Name), Ctx(Ctx) {}

  /// The diagnostic tag, e.g. "hpp-parallel-for".
  llvm::StringRef name() const { return Name; }

  /// Registers the rule's matchers; run() receives their results.
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) {}
  /// Registers preprocessor callbacks (before parsing starts).
  virtual void registerPPCallbacks() {}
  void run(const clang::ast_matchers::MatchFinder::MatchResult &) override {}
  /// Called after every matcher has run over the translation unit: the
  /// last moment a rule may add kernel sites or edit inside their bodies
  /// (the driver outlines the kernels after every rule's call).
  virtual void onEndOfTranslationUnit(clang::ASTContext &) {}
  /// Called once the `#line` directives are placed (RuleContext::lines()
  /// then knows where the output's lines drift): the last moment a rule
  /// may report; it may not edit any more.
  virtual void onLinesSynced() {}
  /// True for the one rule the `#line` directives are filed under (the
  /// framework places them at the end of the translation unit, after every
  /// rule's edits; that rule reports what they cannot keep). It must be a
  /// Lowering rule, which no option turns off.
  virtual bool ownsLineDirectives() const { return false; }
  /// True for the one rule the outlined kernels' insertions are filed
  /// under (the driver's outlining phase inserts them, for every rule that
  /// collected sites; lib/Outline/OutlinePhase.h). It must be a Lowering
  /// rule.
  virtual bool ownsOutlinedKernels() const { return false; }

  llvm::StringRef getID() const override { return Name; }

protected:
  clang::DiagnosticBuilder error(clang::SourceLocation Loc,
                                 llvm::StringRef Msg) {
    return Ctx.Diags.error(Loc, Name, Msg);
  }
  clang::DiagnosticBuilder warning(clang::SourceLocation Loc,
                                   llvm::StringRef Msg) {
    return Ctx.Diags.warning(Loc, Name, Msg);
  }
  clang::DiagnosticBuilder remark(clang::SourceLocation Loc,
                                  llvm::StringRef Msg) {
    return Ctx.Diags.remark(Loc, Name, Msg);
  }
  clang::DiagnosticBuilder note(clang::SourceLocation Loc,
                                llvm::StringRef Msg) {
    return Ctx.Diags.note(Loc, Msg);
  }

  llvm::StringRef Name;
  RuleContext &Ctx;
};

/// Instantiates the registered rules (lib/Rules/Rules.def) that run:
/// every lowering rule and error check, and the warning checks \p Selection
/// enables.
std::vector<std::unique_ptr<Rule>> createRules(RuleContext &Ctx,
                                               const RuleSelection &Selection);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_RULE_H
