//===- IncludeRule.cpp - <hpp/hpp.h> becomes <hpp/runtime.h> --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/IncludeRule.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
/// Watches the main file's #include directives.
class IncludeCallbacks : public PPCallbacks {
public:
  IncludeCallbacks(const SourceManager &SM, EditCollector &Edits,
                   StringRef Rule)
      : SM(SM), Edits(Edits), Rule(Rule) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef Name,
                          bool IsAngled, CharSourceRange FilenameRange,
                          OptionalFileEntryRef, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (Name != "hpp/hpp.h" || !SM.isWrittenInMainFile(HashLoc))
      return;
    Edits.replace(FilenameRange,
                  IsAngled ? "<hpp/runtime.h>" : "\"hpp/runtime.h\"", Rule);
  }

private:
  const SourceManager &SM;
  EditCollector &Edits;
  StringRef Rule;
};
} // namespace

void IncludeRule::registerPPCallbacks() {
  Ctx.CI.getPreprocessor().addPPCallbacks(std::make_unique<IncludeCallbacks>(
      Ctx.CI.getSourceManager(), Ctx.Edits, Name));
}

} // namespace rewrite
} // namespace hpp
