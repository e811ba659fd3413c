//===- SourceEncodingRule.cpp - Literals nvcc can read --------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/SourceEncodingRule.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/ConvertUTF.h"

#include <string>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// \p Text with each byte that is not part of a well-formed UTF-8 sequence
/// replaced by its octal escape; \p Changed says whether any was.
std::string escapeIllFormed(llvm::StringRef Text, bool &Changed) {
  std::string Out;
  const auto *P = reinterpret_cast<const llvm::UTF8 *>(Text.begin());
  const auto *End = reinterpret_cast<const llvm::UTF8 *>(Text.end());
  while (P < End) {
    unsigned N = *P < 0x80 ? 1 : llvm::getNumBytesForUTF8(*P);
    if (*P >= 0x80 &&
        (N > unsigned(End - P) || !llvm::isLegalUTF8Sequence(P, P + N))) {
      char Escape[5];
      snprintf(Escape, sizeof(Escape), "\\%03o", unsigned(*P));
      Out += Escape;
      Changed = true;
      ++P;
      continue;
    }
    Out.append(reinterpret_cast<const char *>(P), N);
    P += N;
  }
  return Out;
}

} // namespace

void SourceEncodingRule::onEndOfTranslationUnit(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  FileID Main = SM.getMainFileID();
  llvm::StringRef Buffer = SM.getBufferData(Main);
  // The whole file as written: directives and skipped branches included.
  Lexer Raw(SM.getLocForStartOfFile(Main), AST.getLangOpts(), Buffer.begin(),
            Buffer.begin(), Buffer.end());
  Raw.SetKeepWhitespaceMode(false);
  Token Tok;
  for (;;) {
    bool AtEnd = Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof))
      break;
    if (tok::isStringLiteral(Tok.getKind()) || Tok.is(tok::char_constant) ||
        Tok.is(tok::wide_char_constant) || Tok.is(tok::utf8_char_constant) ||
        Tok.is(tok::utf16_char_constant) ||
        Tok.is(tok::utf32_char_constant)) {
      llvm::StringRef Spelled(SM.getCharacterData(Tok.getLocation()),
                              Tok.getLength());
      bool Changed = false;
      std::string Escaped = escapeIllFormed(Spelled, Changed);
      if (Changed) {
        bool Narrow = Tok.is(tok::string_literal) || Tok.is(tok::char_constant);
        bool RawString = Spelled.contains("R\"") &&
                         Spelled.find('R') < Spelled.find('"');
        if (!Narrow || RawString)
          error(Tok.getLocation(),
                "this literal holds a byte that is not UTF-8, which nvcc "
                "refuses (\"invalid multibyte character sequence\"); write "
                "the byte as an escape, or the text in UTF-8");
        else
          Ctx.Edits.replace(CharSourceRange::getCharRange(
                                Tok.getLocation(), Tok.getEndLoc()),
                            Escaped, Name);
      }
    }
    if (AtEnd)
      break;
  }
}

} // namespace rewrite
} // namespace hpp
