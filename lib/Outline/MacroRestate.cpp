//===- MacroRestate.cpp - Macros as they were where copied text was -------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Outline/MacroRestate.h"

#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <vector>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// One macro the copied text depends on.
struct Needed {
  const MacroInfo *Start = nullptr; ///< where the text begins
  SourceLocation StartAt;           ///< the copied range that fixed Start
  SourceLocation Use;               ///< a use of it, for diagnostics
  bool Changes = false; ///< the copied text (re)defines or removes it
};

/// Calls \p F with each raw token of \p R (a main-file character range),
/// directives included, until it returns false.
template <class Fn>
void forEachRawToken(const SourceManager &SM, const LangOptions &LO,
                     CharSourceRange R, Fn F) {
  auto [FID, Begin] = SM.getDecomposedLoc(R.getBegin());
  unsigned End = SM.getFileOffset(R.getEnd());
  llvm::StringRef Buffer = SM.getBufferData(FID);
  Lexer Raw(SM.getLocForStartOfFile(FID), LO, Buffer.begin(),
            Buffer.begin() + Begin, Buffer.end());
  Token Tok;
  for (;;) {
    bool AtEnd = Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof) || SM.getFileOffset(Tok.getLocation()) >= End ||
        !F(Tok) || AtEnd)
      break;
  }
}

/// Calls \p F with each identifier the raw text of \p R spells.
template <class Fn>
void forEachRawIdentifier(const SourceManager &SM, const LangOptions &LO,
                          CharSourceRange R, Fn F) {
  forEachRawToken(SM, LO, R, [&](const Token &Tok) {
    if (Tok.is(tok::raw_identifier))
      F(Tok.getRawIdentifier(), Tok.getLocation());
    return true;
  });
}

/// Whether \p A and \p B expand alike (both may be null: undefined).
bool sameDefinition(const MacroInfo *A, const MacroInfo *B, Preprocessor &PP) {
  if (A == B)
    return true;
  if (!A || !B)
    return false;
  return A->isIdenticalTo(*B, PP, /*Syntactically=*/true);
}

/// `NAME(params) tokens`, as its `#define` spells it.
std::string definitionText(const MacroInfo *MI, const SourceManager &SM,
                           const LangOptions &LO) {
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(MI->getDefinitionLoc(),
                                            MI->getDefinitionEndLoc()),
             SM, LO)
      .str();
}

} // namespace

SourceLocation macroDirectiveIn(CharSourceRange Body, const SourceManager &SM,
                                const LangOptions &LO, std::string &Name) {
  SourceLocation Hash, Found;
  // `#` first on its line, then define or undef, then the name.
  unsigned Step = 0; // 1: after a `#` at a line's start; 2: after define.
  forEachRawToken(SM, LO, Body, [&](const Token &Tok) {
    if (Tok.is(tok::hash) && Tok.isAtStartOfLine()) {
      Step = 1;
      Hash = Tok.getLocation();
    } else if (Step == 1 && Tok.is(tok::raw_identifier) &&
               (Tok.getRawIdentifier() == "define" ||
                Tok.getRawIdentifier() == "undef")) {
      Step = 2;
    } else if (Step == 2 && Tok.is(tok::raw_identifier)) {
      Name = Tok.getRawIdentifier().str();
      Found = Hash;
      return false;
    } else {
      Step = 0;
    }
    return true;
  });
  return Found;
}

std::optional<MacroRestate>
restateMacros(Preprocessor &PP, llvm::ArrayRef<CharSourceRange> Copied,
              SourceLocation Dest, OutlineError &Err) {
  const SourceManager &SM = PP.getSourceManager();
  const LangOptions &LO = PP.getLangOpts();
  auto DefinitionAt = [&](const IdentifierInfo *II, SourceLocation Loc) {
    return PP.getMacroDefinitionAtLoc(II, Loc).getMacroInfo();
  };

  // Every macro the text names, and the macros their definitions name (a
  // definition expands where the text uses it), with the definition each
  // has where the copied text that names it begins.
  std::map<std::string, Needed> Macros; // by name: a stable output order
  bool Conflict = false;
  std::vector<std::pair<const IdentifierInfo *, const CharSourceRange *>> Work;
  auto Visit = [&](const IdentifierInfo *II, const CharSourceRange &R,
                   SourceLocation Use) {
    if (!II || !II->hadMacroDefinition())
      return;
    const MacroInfo *Start = DefinitionAt(II, R.getBegin());
    if (Start && Start->isBuiltinMacro())
      return; // __LINE__ and the like: hpp-source-position's.
    auto [It, New] = Macros.try_emplace(II->getName().str());
    Needed &N = It->second;
    if (New) {
      N.Start = Start;
      N.StartAt = R.getBegin();
      N.Use = Use;
      Work.push_back({II, &R});
    } else if (!sameDefinition(N.Start, Start, PP) && !Conflict) {
      Conflict = true;
      Err = {Use, "cannot outline: the copied code uses the macro '" +
                      II->getName().str() +
                      "', which has another definition here than where the "
                      "rest of it is written; give the macro one "
                      "definition for the whole body"};
    }
    if (!sameDefinition(Start, DefinitionAt(II, R.getEnd()), PP))
      N.Changes = true;
  };
  for (const CharSourceRange &R : Copied)
    forEachRawIdentifier(SM, LO, R,
                         [&](llvm::StringRef Name, SourceLocation Loc) {
                           Visit(PP.getIdentifierInfo(Name), R, Loc);
                         });
  while (!Work.empty()) {
    auto [II, R] = Work.back();
    Work.pop_back();
    const Needed &N = Macros[II->getName().str()];
    if (const MacroInfo *MI = N.Start)
      for (const Token &T : MI->tokens())
        Visit(T.getIdentifierInfo(), *R, N.Use);
  }
  if (Conflict)
    return std::nullopt;

  MacroRestate Out;
  std::string After;
  for (const auto &[Name, N] : Macros) {
    const IdentifierInfo *II = PP.getIdentifierInfo(Name);
    const MacroInfo *AtDest = DefinitionAt(II, Dest);
    if (sameDefinition(N.Start, AtDest, PP) && !N.Changes)
      continue;
    if (N.Start &&
        (SM.isWrittenInBuiltinFile(N.Start->getDefinitionLoc()) ||
         SM.isWrittenInCommandLineFile(N.Start->getDefinitionLoc()))) {
      Err = {N.Use, "cannot outline: the copied code uses the macro '" + Name +
                        "' as the command line defines it, but the place "
                        "the kernel goes defines it differently; the "
                        "rewrite cannot repeat a command-line definition"};
      return std::nullopt;
    }
    std::string Quoted = "\"" + Name + "\"";
    if (AtDest) {
      Out.Before += "#pragma push_macro(" + Quoted + ")\n#undef " + Name + "\n";
      After = "#pragma pop_macro(" + Quoted + ")\n" + After;
    } else {
      After = "#undef " + Name + "\n" + After;
    }
    if (N.Start)
      Out.Before += "#define " + definitionText(N.Start, SM, LO) + "\n";
  }
  Out.After = std::move(After);
  return Out;
}

} // namespace rewrite
} // namespace hpp
