//===- KernelSites.h - The lambdas a translation unit outlines --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The parallelFor bodies, Task bodies and Channel consumers of a
/// translation unit, collected by their rules (RuleContext::kernelSites(),
/// the one outlining header a rule includes) while they match and at the
/// end of the translation unit. The driver's outlining phase
/// (Outline/OutlinePhase.h) then outlines them all at once, after every
/// rule's edits are known.
///
/// The collection is closed when that phase starts: a site added later
/// would be left out, or would find the edits inside its body moved away.
/// It is refused, with an internal error, and so is a second run of the
/// phase.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_KERNELSITES_H
#define HPP_REWRITE_LIB_OUTLINE_KERNELSITES_H

#include "Outline/OutlineRequest.h"

#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace clang {
class Expr;
class LambdaExpr;
class SourceManager;
} // namespace clang

namespace hpp {
namespace rewrite {

class RuleDiagnostics;

/// The lambdas to outline, in the order the rules found them.
class KernelSites {
public:
  /// One lambda to outline.
  struct Site {
    KernelKind Kind;
    /// The parallelFor call, the Task construction (the initialiser of a
    /// variable of a dependent Task type in a template), or the
    /// executeWith call of a consumer.
    const clang::Expr *Expr;
    const clang::LambdaExpr *Lambda;
    /// The Task's type (a Task only).
    clang::QualType TaskType;
    /// The rule that found it: its tag goes on errors and edits.
    llvm::StringRef Rule;
  };

  /// Internal errors go to \p Diags.
  explicit KernelSites(RuleDiagnostics &Diags) : Diags(Diags) {}

  /// Adds \p S, to be outlined by the outlining phase. Once that phase has
  /// started, refuses it: reports an internal error at the site, tagged
  /// with its rule, and returns false.
  bool add(const Site &S);

  /// Whether the outlining phase has started: no site may be added.
  bool closed() const { return Closed; }

private:
  friend class OutlinePhase;

  /// Closes the collection and returns its sites in source order (the
  /// kernels are numbered, and emitted, so). For the outlining phase,
  /// which refuses to run on sites already closed.
  std::vector<Site> close(const clang::SourceManager &SM);

  RuleDiagnostics &Diags;
  std::vector<Site> Sites;
  bool Closed = false;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_KERNELSITES_H
