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
  ConditionalCallbacks(const SourceManager &SM,
                       std::shared_ptr<ConditionalBlocks> Out)
      : SM(SM), Out(std::move(Out)) {}

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

private:
  void open(SourceLocation Loc) {
    if (!SM.isWrittenInMainFile(Loc))
      return;
    auto [FID, Offset] = SM.getDecomposedLoc(Loc);
    unsigned Line = SM.getLineNumber(FID, Offset);
    Open.push_back(SM.translateLineCol(FID, Line, 1));
  }

  const SourceManager &SM;
  std::shared_ptr<ConditionalBlocks> Out;
  std::vector<SourceLocation> Open;
};
} // namespace

std::shared_ptr<ConditionalBlocks> ConditionalBlocks::record(Preprocessor &PP) {
  auto Blocks = std::make_shared<ConditionalBlocks>();
  PP.addPPCallbacks(
      std::make_unique<ConditionalCallbacks>(PP.getSourceManager(), Blocks));
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
