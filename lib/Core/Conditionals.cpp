//===- Conditionals.cpp - The main file's #if blocks ----------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Core/Conditionals.h"

#include "clang/Lex/PPCallbacks.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
/// Pairs the main file's `#if`s with their `#endif`s.
class ConditionalCallbacks : public PPCallbacks {
public:
  ConditionalCallbacks(const SourceManager &SM, RuleDiagnostics &Diags,
                       llvm::StringRef Rule,
                       std::shared_ptr<ConditionalBlocks> Out)
      : SM(SM), Diags(Diags), Rule(Rule), Out(std::move(Out)) {}

  void If(SourceLocation Loc, SourceRange, ConditionValueKind) override {
    open(Loc);
  }
  void Ifdef(SourceLocation Loc, const Token &,
             const MacroDefinition &) override {
    open(Loc);
  }
  void Ifndef(SourceLocation Loc, const Token &,
              const MacroDefinition &) override {
    open(Loc);
  }
  void Endif(SourceLocation Loc, SourceLocation IfLoc) override {
    if (!SM.isWrittenInMainFile(Loc) || Open.empty())
      return;
    Out->Blocks.push_back({Open.back(), Loc});
    Open.pop_back();
  }
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    if (!SM.isWrittenInMainFile(Range.getBegin()))
      return;
    bool Invalid = false;
    const char *Begin = SM.getCharacterData(Range.getBegin(), &Invalid);
    const char *End = SM.getCharacterData(Range.getEnd(), &Invalid);
    if (Invalid || End < Begin)
      return;
    llvm::StringRef Text(Begin, End - Begin);
    if (Text.contains("parallelFor") || Text.contains("__device("))
      Diags.warning(Range.getBegin(), Rule,
                    "this inactive preprocessor branch holds dialect code, "
                    "which is left as written; the output builds only with "
                    "the macros the tool saw (pass the same -D options to "
                    "hpp-rewrite to rewrite the other branch)");
  }

private:
  void open(SourceLocation Loc) {
    if (!SM.isWrittenInMainFile(Loc))
      return;
    auto [FID, Offset] = SM.getDecomposedLoc(Loc);
    unsigned Line = SM.getLineNumber(FID, Offset);
    Open.push_back(SM.translateLineCol(FID, Line, 1));
  }

  const SourceManager &SM;
  RuleDiagnostics &Diags;
  llvm::StringRef Rule;
  std::shared_ptr<ConditionalBlocks> Out;
  std::vector<SourceLocation> Open;
};
} // namespace

std::shared_ptr<ConditionalBlocks>
ConditionalBlocks::record(Preprocessor &PP, RuleDiagnostics &Diags,
                          llvm::StringRef Rule) {
  auto Blocks = std::make_shared<ConditionalBlocks>();
  PP.addPPCallbacks(std::make_unique<ConditionalCallbacks>(
      PP.getSourceManager(), Diags, Rule, Blocks));
  return Blocks;
}

SourceLocation ConditionalBlocks::hoist(SourceLocation InsertAt,
                                        SourceLocation Use,
                                        const SourceManager &SM) const {
  bool Moved = true;
  while (Moved) {
    Moved = false;
    for (const Block &B : Blocks)
      if (SM.isBeforeInTranslationUnit(B.If, InsertAt) &&
          SM.isBeforeInTranslationUnit(InsertAt, B.Endif) &&
          SM.isBeforeInTranslationUnit(B.Endif, Use)) {
        InsertAt = B.If;
        Moved = true;
      }
  }
  return InsertAt;
}

} // namespace rewrite
} // namespace hpp
