//===- hpp-rewrite/Diagnostics.h - Tagged rule diagnostics ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one place that creates diagnostic IDs. Every message a rule emits is
/// printed in clang's format and tagged with the rule's name:
/// `file:line:col: error: message [hpp-rule-name]`, or, for a warning that
/// --warnings-as-errors makes an error, `[hpp-rule-name,-warnings-as-errors]`
/// as clang-tidy writes it.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_DIAGNOSTICS_H
#define HPP_REWRITE_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>
#include <tuple>

namespace hpp {
namespace rewrite {

class RuleSelection;

/// Emits rule diagnostics through the compiler's DiagnosticsEngine.
class RuleDiagnostics {
public:
  /// Reports through \p Engine; the warnings of the rules \p Selection
  /// names with --warnings-as-errors are reported as errors.
  explicit RuleDiagnostics(clang::DiagnosticsEngine &Engine,
                           const RuleSelection *Selection = nullptr)
      : Engine(Engine), Selection(Selection) {}

  /// Reports an error tagged with \p Rule. Returns an empty builder when the
  /// same message was already reported at \p Loc (template instantiations
  /// visit the same code more than once), so callers may stream fix-its.
  clang::DiagnosticBuilder error(clang::SourceLocation Loc,
                                 llvm::StringRef Rule, llvm::StringRef Message);
  /// Reports a warning tagged with \p Rule; an error tagged
  /// `[Rule,-warnings-as-errors]` when --warnings-as-errors names the rule.
  clang::DiagnosticBuilder warning(clang::SourceLocation Loc,
                                   llvm::StringRef Rule,
                                   llvm::StringRef Message);
  /// Reports a remark tagged with \p Rule: what the tool decided, when the
  /// output is right but may not be what the user expects.
  clang::DiagnosticBuilder remark(clang::SourceLocation Loc,
                                  llvm::StringRef Rule,
                                  llvm::StringRef Message);
  /// Attaches a note to the last reported diagnostic.
  clang::DiagnosticBuilder note(clang::SourceLocation Loc,
                                llvm::StringRef Message);

  /// True once any error (clang's or a rule's) has been reported.
  bool hasErrors() const { return Engine.hasErrorOccurred(); }
  clang::DiagnosticsEngine &engine() { return Engine; }

private:
  clang::DiagnosticBuilder report(clang::DiagnosticsEngine::Level Level,
                                  clang::SourceLocation Loc,
                                  llvm::StringRef Rule,
                                  llvm::StringRef Message);

  clang::DiagnosticsEngine &Engine;
  const RuleSelection *Selection;
  /// (raw location, rule, message) of everything already reported.
  std::set<std::tuple<unsigned, std::string, std::string>> Seen;
  /// True when the last diagnostic was a duplicate: its notes are dropped.
  bool LastSuppressed = false;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_DIAGNOSTICS_H
