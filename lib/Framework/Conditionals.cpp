//===- Conditionals.cpp - The main file's #if blocks ----------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Framework/Conditionals.h"

#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseSet.h"

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
    if (OpenAny.empty())
      return;
    auto [If, First] = OpenAny.back();
    OpenAny.pop_back();
    Out->AllBlocks.push_back({{If, Loc}, First});
    if (!SM.isWrittenInMainFile(Loc) || Open.empty())
      return;
    Out->Blocks.push_back({Open.back(), Loc});
    Open.pop_back();
  }

private:
  void open(SourceLocation Loc) {
    auto [FID, Offset] = SM.getDecomposedLoc(Loc);
    unsigned Line = SM.getLineNumber(FID, Offset);
    SourceLocation Start = SM.translateLineCol(FID, Line, 1);
    OpenAny.push_back({Start, SeenFiles.insert(FID).second});
    if (SM.isWrittenInMainFile(Loc))
      Open.push_back(Start);
  }

  const SourceManager &SM;
  std::shared_ptr<ConditionalBlocks> Out;
  std::vector<SourceLocation> Open;
  std::vector<std::pair<SourceLocation, bool>> OpenAny;
  llvm::DenseSet<FileID> SeenFiles;
};
} // namespace

std::shared_ptr<ConditionalBlocks> ConditionalBlocks::record(Preprocessor &PP) {
  auto Blocks = std::make_shared<ConditionalBlocks>();
  Blocks->Headers = &PP.getHeaderSearchInfo();
  Blocks->LangOpts = &PP.getLangOpts();
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

bool ConditionalBlocks::encloses(SourceLocation Loc,
                                 const SourceManager &SM) const {
  if (!Loc.isFileID())
    return false;
  FileID FID = SM.getFileID(Loc);
  for (const AnyBlock &A :
       SM.isLoadedFileID(FID) ? lexedBlocks(FID, SM) : AllBlocks) {
    if (SM.getFileID(A.B.If) != FID ||
        !SM.isBeforeInTranslationUnit(A.B.If, Loc) ||
        !SM.isBeforeInTranslationUnit(Loc, A.B.Endif))
      continue;
    // The include guard: the first block of a header whose every
    // declaration it holds (clang found the controlling macro).
    if (A.FirstOfFile && Headers && FID != SM.getMainFileID())
      if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID))
        if (const HeaderFileInfo *HFI = Headers->getExistingFileInfo(*FE))
          if (HFI->LazyControllingMacro.isValid())
            continue;
    return true;
  }
  return false;
}

const std::vector<ConditionalBlocks::AnyBlock> &
ConditionalBlocks::lexedBlocks(FileID FID, const SourceManager &SM) const {
  auto [It, New] = Lexed.try_emplace(FID);
  if (New && LangOpts)
    It->second = lexBlocks(FID, SM, *LangOpts);
  return It->second;
}

std::vector<ConditionalBlocks::AnyBlock>
ConditionalBlocks::lexBlocks(FileID FID, const SourceManager &SM,
                             const LangOptions &LangOpts) {
  std::vector<AnyBlock> Out;
  bool Invalid = false;
  StringRef Text = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return Out;
  Lexer Raw(SM.getLocForStartOfFile(FID), LangOpts, Text.begin(), Text.begin(),
            Text.end());
  std::vector<std::pair<SourceLocation, bool>> Open;
  bool First = true;
  Token T;
  Raw.LexFromRawLexer(T);
  while (T.isNot(tok::eof)) {
    if (T.isNot(tok::hash) || !T.isAtStartOfLine()) {
      Raw.LexFromRawLexer(T);
      continue;
    }
    SourceLocation Hash = T.getLocation();
    Raw.LexFromRawLexer(T);
    if (T.isAtStartOfLine() || T.isNot(tok::raw_identifier))
      continue; // A null directive: T starts the next line.
    StringRef Name = T.getRawIdentifier();
    if (Name == "if" || Name == "ifdef" || Name == "ifndef") {
      // As the callbacks record it: the start of the directive's line.
      Open.push_back(
          {SM.translateLineCol(FID, SM.getSpellingLineNumber(Hash), 1), First});
      First = false;
    } else if (Name == "endif" && !Open.empty()) {
      Out.push_back({{Open.back().first, T.getLocation()}, Open.back().second});
      Open.pop_back();
    }
    Raw.LexFromRawLexer(T);
  }
  return Out;
}

} // namespace rewrite
} // namespace hpp
