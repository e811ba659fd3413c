//===- WidthDispatch.cpp - The text of host width dispatches --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/WidthDispatch.h"
#include "Analysis/WidthRegions.h"
#include "Analysis/WidthUses.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace hpp {
namespace rewrite {

std::string regionOpening(const WidthRegion &R) {
  if (!R.ReturnsValue)
    return "hpp::withWarpSize([&](auto hppWarp) { ";
  return "return hpp::withWarpSize([&](auto hppWarp)" +
         (R.ReturnType.empty() ? "" : " -> " + R.ReturnType) + " { ";
}

/// The blanks that start the line of \p Loc.
static std::string lineIndent(SourceLocation Loc, const SourceManager &SM) {
  const char *Data = SM.getCharacterData(Loc);
  unsigned Col = SM.getSpellingColumnNumber(Loc) - 1;
  const char *Line = Data - Col;
  unsigned N = 0;
  while (N < Col && (Line[N] == ' ' || Line[N] == '\t'))
    ++N;
  return std::string(Line, N);
}

/// \p Call's text with every width use inside it replaced: \p Width for
/// the dispatched template arguments, the run-time width for the others.
static std::string instantiate(StringRef Text, unsigned Begin,
                               llvm::ArrayRef<const WidthUse *> Uses,
                               StringRef Width, const SourceManager &SM) {
  std::string Out;
  unsigned Pos = 0;
  for (const WidthUse *U : Uses) {
    unsigned B = SM.getFileOffset(U->Range.getBegin()) - Begin;
    unsigned E = SM.getFileOffset(U->Range.getEnd()) - Begin;
    if (U->Range.isTokenRange())
      E += Lexer::MeasureTokenLength(U->Range.getEnd(), SM, LangOptions());
    Out += Text.substr(Pos, B - Pos);
    Out +=
        U->Context == WidthUse::DispatchArg ? Width : StringRef(RunTimeWidth);
    Pos = E;
  }
  Out += Text.substr(Pos);
  return Out;
}

WidthDispatch dispatchCallStatement(const Expr *Call, bool Braces,
                                    std::vector<const WidthUse *> Uses,
                                    ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  WidthDispatch D;
  CharSourceRange Range =
      CharSourceRange::getTokenRange(Call->getSourceRange());
  if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID()) {
    D.Problem = " in a call written through a macro";
    return D;
  }
  // Wrapped in braces, the dispatch takes the statement's `;` with it.
  SourceLocation Semi;
  if (Braces) {
    std::optional<Token> Next =
        Lexer::findNextToken(Call->getEndLoc(), SM, AST.getLangOpts());
    if (!Next || !Next->is(tok::semi) || Next->getLocation().isMacroID()) {
      D.Problem = ": the call statement's ';' is not written after the call";
      return D;
    }
    Semi = Next->getLocation();
  }
  llvm::sort(Uses, [&](const WidthUse *A, const WidthUse *B) {
    return SM.getFileOffset(A->Range.getBegin()) <
           SM.getFileOffset(B->Range.getBegin());
  });
  StringRef Text = Lexer::getSourceText(Range, SM, AST.getLangOpts());
  unsigned Begin = SM.getFileOffset(Range.getBegin());
  std::string C32 = instantiate(Text, Begin, Uses, "32", SM);
  std::string C64 = instantiate(Text, Begin, Uses, "64", SM);
  if (!Braces) {
    std::string Indent(SM.getSpellingColumnNumber(Range.getBegin()) - 1, ' ');
    D.Range = Range;
    D.Text = "if constexpr (hpp::getMaxWarpSize() == 32)\n" + Indent + "  " +
             C32 + ";\n" + Indent + "else if (" + RunTimeWidth.str() +
             " == 32)\n" + Indent + "  " + C32 + ";\n" + Indent + "else\n" +
             Indent + "  " + C64;
    return D;
  }
  // `case 1: f<W>(x);`, `if (c) f<W>(x);`: one statement, a block, at the
  // indentation of the line the call starts on.
  std::string Indent = lineIndent(Range.getBegin(), SM);
  std::string In = Indent + "  ";
  D.Range = CharSourceRange::getTokenRange(Range.getBegin(), Semi);
  D.Text = "{\n" + In + "if constexpr (hpp::getMaxWarpSize() == 32)\n" + In +
           "  " + C32 + ";\n" + In + "else if (" + RunTimeWidth.str() +
           " == 32)\n" + In + "  " + C32 + ";\n" + In + "else\n" + In + "  " +
           C64 + ";\n" + Indent + "}";
  return D;
}

} // namespace rewrite
} // namespace hpp
