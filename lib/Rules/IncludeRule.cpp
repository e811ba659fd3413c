//===- IncludeRule.cpp - <hpp/hpp.h> becomes <hpp/runtime.h> --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/IncludeRule.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
/// Watches the main file's #include directives.
class IncludeCallbacks : public PPCallbacks {
public:
  IncludeCallbacks(const SourceManager &SM, EditCollector &Edits,
                   RuleDiagnostics &Diags, StringRef Rule)
      : SM(SM), Edits(Edits), Diags(Diags), Rule(Rule) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef Name,
                          bool IsAngled, CharSourceRange FilenameRange,
                          OptionalFileEntryRef, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (Name != "hpp/hpp.h" || SM.isInSystemHeader(HashLoc))
      return;
    if (!SM.isWrittenInMainFile(HashLoc)) {
      // Through a project header, which the output keeps as written: it
      // would bring the CPU reference in beside the device runtime.
      SourceLocation Inc = HashLoc;
      while (Inc.isValid() && !SM.isWrittenInMainFile(Inc))
        Inc = SM.getIncludeLoc(SM.getFileID(Inc));
      std::string Header =
          llvm::sys::path::filename(SM.getFilename(HashLoc)).str();
      Diags.error(Inc.isValid() ? Inc : HashLoc, Rule,
                  "'hpp/hpp.h' is included through '" + Header +
                      "', which hpp-rewrite does not rewrite: the output "
                      "would include the CPU reference beside the device "
                      "runtime; include <hpp/hpp.h> in this file only, and "
                      "keep the dialect code of '" +
                      Header + "' in this file");
      Diags.note(HashLoc, "'" + Header + "' includes it here");
      return;
    }
    Edits.replace(FilenameRange,
                  IsAngled ? "<hpp/runtime.h>" : "\"hpp/runtime.h\"", Rule);
  }

  /// `__device(...)` in a project header: dialect code the output would
  /// keep as written (a parallelFor body carries it too).
  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange,
                    const MacroArgs *) override {
    SourceLocation Loc = Name.getLocation();
    if (Name.getIdentifierInfo()->getName() == "__device" && Loc.isFileID() &&
        !SM.isWrittenInMainFile(Loc) && !SM.isInSystemHeader(Loc))
      Edits.refuseHeader(Loc, Rule);
  }

private:
  const SourceManager &SM;
  EditCollector &Edits;
  RuleDiagnostics &Diags;
  StringRef Rule;
};
} // namespace

void IncludeRule::registerPPCallbacks() {
  Ctx.CI.getPreprocessor().addPPCallbacks(std::make_unique<IncludeCallbacks>(
      Ctx.CI.getSourceManager(), Ctx.Edits, Ctx.Diags, Name));
}

} // namespace rewrite
} // namespace hpp
