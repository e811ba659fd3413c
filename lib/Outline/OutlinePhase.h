//===- OutlinePhase.h - The driver's outlining phase ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Outlining is a phase of the driver (lib/Driver/Driver.cpp), between the
/// rules and the `#line` directives:
///
///   the rules' matchers -> each rule's onEndOfTranslationUnit ->
///   OutlinePhase::run -> the `#line` directives, each rule's
///   onLinesSynced -> the edits applied
///
/// It runs once every rule has edited the bodies (those edits move into
/// the kernels), and outlines every site the rules collected
/// (KernelSites.h) at once, in source order, so that kernels are named
/// (`hpp_<f>_pfor<k>`, `hpp_<f>_task<k>`, `hpp_<f>_consumer<k>`, unique
/// across the kinds) and emitted in that order. For each site: its request
/// (OutlineRequest.h), the edits inside its body taken out of the
/// collector, its kernel (KernelOutliner.h), placed (out of an `#if` block
/// that ends before the launch, with the macros its text needs restated:
/// MacroRestate.h), and the lambda (and a parallelFor's `parallelFor(`)
/// replaced by the launch.
///
/// The order is held in code, not by the order of the rules: starting the
/// phase closes the collection (KernelSites::add refuses a site from then
/// on), and the phase refuses to run a second time.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_OUTLINEPHASE_H
#define HPP_REWRITE_LIB_OUTLINE_OUTLINEPHASE_H

#include "Outline/KernelSites.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <memory>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
class Preprocessor;
} // namespace clang

namespace hpp {
namespace rewrite {

class ConditionalBlocks;
class EditCollector;
class KernelOutliner;
class LineDirectives;
class RuleDiagnostics;
struct OutlinedKernel;

/// Outlines the kernels of one translation unit.
class OutlinePhase {
public:
  /// Starts recording the `#if` blocks of \p PP's files (before the
  /// parse): a kernel never lands in a block that ends before its launch,
  /// and a constant declared in one is never copied. The phase edits
  /// through \p Edits and reports through \p Diags; \p Lines gives each
  /// body the `#line` directive that keeps its lines.
  OutlinePhase(clang::Preprocessor &PP, EditCollector &Edits,
               RuleDiagnostics &Diags, const LineDirectives &Lines);
  ~OutlinePhase();

  /// Closes \p Sites (KernelSites::add refuses a site from then on) and
  /// outlines every site: inserts the kernels and replaces each lambda
  /// (and a parallelFor's `parallelFor(`) with the launch; moves the edits
  /// other rules made inside the bodies with them. Runs even after other
  /// errors, so that every problem is reported at once (nothing is written
  /// when there are errors anyway). The kernels are inserted under the tag
  /// \p Tag (Rule::ownsOutlinedKernels); a lambda's replacement and the
  /// errors of a site go under the site's rule.
  ///
  /// Runs once: a second run, or a run on sites already closed, reports
  /// an internal error tagged \p Tag and returns false.
  bool run(KernelSites &Sites, clang::ASTContext &AST, llvm::StringRef Tag);

  /// Number of kernels run() outlined.
  unsigned outlined() const { return Outlined; }

private:
  /// The kernel of \p S with its launch in place, or std::nullopt after
  /// reporting why not.
  std::optional<OutlinedKernel> outline(const KernelSites::Site &S,
                                        KernelOutliner &Outliner,
                                        clang::ASTContext &AST);
  /// Replaces the lambda of \p S (and a parallelFor's `parallelFor(`) with
  /// the launch of \p K; false when the collector refused an edit.
  bool replaceWithLaunch(const KernelSites::Site &S, const OutlinedKernel &K,
                         const clang::ASTContext &AST);
  /// `hpp_<function>_<kind><k>`, unique in the translation unit.
  std::string kernelName(const clang::FunctionDecl *F, KernelKind Kind);

  clang::Preprocessor &PP;
  EditCollector &Edits;
  RuleDiagnostics &Diags;
  const LineDirectives &Lines;
  std::shared_ptr<ConditionalBlocks> Conditionals;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, int>, unsigned>
      PerFunction;
  llvm::StringSet<> UsedNames;
  unsigned Outlined = 0;
  bool Ran = false;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_OUTLINEPHASE_H
