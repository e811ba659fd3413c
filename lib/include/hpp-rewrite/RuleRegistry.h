//===- hpp-rewrite/RuleRegistry.h - Rules and their selection ---*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The registered rules as data (lib/Rules/Rules.def: tag, kind, summary),
/// for `--list-rules`, and RuleSelection, what `--rules`, `--disable` and
/// `--warnings-as-errors` make of them. Only warning checks can be turned
/// off: without a lowering rule the output would be silently wrong, and
/// without an error check, what it refuses would be lowered wrongly.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_RULEREGISTRY_H
#define HPP_REWRITE_RULEREGISTRY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace hpp {
namespace rewrite {

/// What a rule does, and so whether it may be turned off.
enum class RuleKind {
  Lowering,    ///< edits the output; always runs
  ErrorCheck,  ///< refuses what cannot be lowered correctly; always runs
  WarningCheck ///< warnings only; may be selected and disabled
};

/// `lowering`, `error-check` or `warning-check`.
llvm::StringRef kindName(RuleKind Kind);

/// One line of lib/Rules/Rules.def.
struct RuleInfo {
  llvm::StringRef Name; ///< the diagnostic tag, e.g. "hpp-parallel-for"
  RuleKind Kind;
  llvm::StringRef Summary; ///< one line
};

/// Every registered rule, in the order in which they run.
llvm::ArrayRef<RuleInfo> registeredRules();

/// Which warning checks run, and which rules' warnings are errors.
/// Each setter takes a comma-separated list of rule names or globs (`*`,
/// `?`, `[...]`), in order; a leading `-` removes what the glob matches.
/// It fails, saying why, on a name that matches no rule (with the closest
/// tag), and on turning off a rule that is not a warning check.
class RuleSelection {
public:
  /// `--rules`: the warning checks that run are those the list selects
  /// (all of them by default). Lowering rules and error checks always run;
  /// naming one positively is allowed, removing one is an error.
  llvm::Error selectChecks(llvm::StringRef List);
  /// `--disable`: the warning checks the list names do not run.
  llvm::Error disableChecks(llvm::StringRef List);
  /// `--warnings-as-errors`: the warnings of the rules the list names are
  /// errors (tagged `[rule,-warnings-as-errors]`).
  llvm::Error setWarningsAsErrors(llvm::StringRef List);

  /// `--remarks`: only the rules the list names print their remarks (what
  /// they did and why); an empty list prints none. Warnings, errors and
  /// edits do not change.
  llvm::Error setRemarks(llvm::StringRef List);

  /// Only the rules the list names run, of every kind, lowering rules and
  /// error checks too: for simulations that apply part of a rewrite on
  /// purpose (`--simulate-rename-only`), never for output meant for use.
  llvm::Error restrictTo(llvm::StringRef List);

  /// Whether rule \p Name runs (when it is a warning check, or when the
  /// selection is restricted: restrictTo).
  bool isEnabled(llvm::StringRef Name) const {
    return !Off.contains(Name) && (!Restricted || Only.contains(Name));
  }
  /// Whether rule \p Name, of kind \p Kind, runs.
  bool runs(llvm::StringRef Name, RuleKind Kind) const {
    return (Kind != RuleKind::WarningCheck && !Restricted) || isEnabled(Name);
  }
  /// Whether restrictTo has taken rules out of the run.
  bool isRestricted() const { return Restricted; }
  /// Whether the warnings of rule \p Name are errors.
  bool isWarningAsError(llvm::StringRef Name) const {
    return AsErrors.contains(Name);
  }
  /// Whether rule \p Name prints its remarks.
  bool printsRemarks(llvm::StringRef Name) const {
    return !Quiet.contains(Name);
  }

private:
  llvm::StringSet<> Off;      ///< warning checks that do not run
  llvm::StringSet<> AsErrors; ///< rules whose warnings are errors
  llvm::StringSet<> Quiet;    ///< rules whose remarks are not printed
  llvm::StringSet<> Only;     ///< with Restricted: the rules that run
  bool Restricted = false;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_RULEREGISTRY_H
