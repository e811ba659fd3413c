//===- Diagnostics.cpp - Tagged rule diagnostics --------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/Diagnostics.h"
#include "hpp-rewrite/RuleRegistry.h"

using namespace clang;

namespace hpp {
namespace rewrite {

DiagnosticBuilder RuleDiagnostics::report(DiagnosticsEngine::Level Level,
                                          SourceLocation Loc,
                                          llvm::StringRef Rule,
                                          llvm::StringRef Message) {
  bool Fresh =
      Seen.emplace(Loc.getRawEncoding(), Rule.str(), Message.str()).second;
  LastSuppressed = !Fresh;
  std::string Tag = Rule.str();
  if (Level == DiagnosticsEngine::Warning && Selection &&
      Selection->isWarningAsError(Rule)) {
    Level = DiagnosticsEngine::Error;
    Tag += ",-warnings-as-errors";
  }
  // A remark of a rule that `--remarks` leaves out is dropped like a
  // duplicate, its notes with it.
  if (Level == DiagnosticsEngine::Remark && Selection &&
      !Selection->printsRemarks(Rule)) {
    Fresh = false;
    LastSuppressed = true;
  }
  // A duplicate is reported at the Ignored level: clang drops it and the
  // notes that follow it.
  unsigned ID = Engine.getCustomDiagID(
      Fresh ? Level : DiagnosticsEngine::Ignored, "%0 [%1]");
  return std::move(Engine.Report(Loc, ID) << Message << Tag);
}

DiagnosticBuilder RuleDiagnostics::error(SourceLocation Loc,
                                         llvm::StringRef Rule,
                                         llvm::StringRef Message) {
  return report(DiagnosticsEngine::Error, Loc, Rule, Message);
}

DiagnosticBuilder RuleDiagnostics::warning(SourceLocation Loc,
                                           llvm::StringRef Rule,
                                           llvm::StringRef Message) {
  return report(DiagnosticsEngine::Warning, Loc, Rule, Message);
}

DiagnosticBuilder RuleDiagnostics::remark(SourceLocation Loc,
                                          llvm::StringRef Rule,
                                          llvm::StringRef Message) {
  return report(DiagnosticsEngine::Remark, Loc, Rule, Message);
}

DiagnosticBuilder RuleDiagnostics::note(SourceLocation Loc,
                                        llvm::StringRef Message) {
  unsigned ID = Engine.getCustomDiagID(
      LastSuppressed ? DiagnosticsEngine::Ignored : DiagnosticsEngine::Note,
      "%0");
  return std::move(Engine.Report(Loc, ID) << Message);
}

} // namespace rewrite
} // namespace hpp
