//===- WavefrontSizeMacroCheck.cpp - Preprocessor wavefront-width tests ---===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/WavefrontSizeMacroCheck.h"
#include "Framework/RewriteScope.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

constexpr llvm::StringLiteral WavefrontMacro = "__AMDGCN_WAVEFRONT_SIZE__";

bool isConditional(StringRef Directive) {
  return llvm::StringSwitch<bool>(Directive)
      .Cases("if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", true)
      .Default(false);
}

/// `__GFX9__`, `__GFX11__`, `__gfx90a__`, `__gfx1030__`, `__gfx9_4_generic__`.
bool isTargetMacro(StringRef Name) {
  if (!(Name.consume_front("__GFX") || Name.consume_front("__gfx")) ||
      !Name.consume_back("__") || Name.empty() || !llvm::isDigit(Name[0]))
    return false;
  return llvm::all_of(Name,
                      [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

/// True when \p T spells a wavefront width: 32, 64, warpSize, the macro.
bool mentionsWidth(const Token &T) {
  if (T.is(tok::raw_identifier))
    return T.getRawIdentifier() == "warpSize" ||
           T.getRawIdentifier() == WavefrontMacro;
  if (!T.is(tok::numeric_constant))
    return false;
  StringRef Text(T.getLiteralData(), T.getLength());
  uint64_t V = 0;
  return !Text.rtrim("uUlL").getAsInteger(0, V) && (V == 32 || V == 64);
}

/// The raw tokens of a file from the start of a line, each with the
/// directive it belongs to.
class LineLexer {
public:
  LineLexer(const SourceManager &SM, const LangOptions &LO,
            SourceLocation Loc) {
    auto [FID, Offset] = SM.getDecomposedLoc(SM.getFileLoc(Loc));
    StringRef Buf = SM.getBufferData(FID);
    Offset -= SM.getColumnNumber(FID, Offset) - 1;
    L.emplace(SM.getLocForStartOfFile(FID), LO, Buf.begin(),
              Buf.begin() + Offset, Buf.end());
  }

  /// The next token; false at the end of the file.
  bool next(Token &T) {
    if (Done)
      return false;
    Done = L->LexFromRawLexer(T);
    if (T.is(tok::eof))
      return false;
    if (T.isAtStartOfLine()) {
      ++Line;
      Directive = T.is(tok::hash) ? "#" : "";
      DirectiveLoc = T.getLocation();
      Pos = 0;
    } else {
      ++Pos;
      if (Pos == 1 && Directive == "#")
        Directive = T.is(tok::raw_identifier) ? T.getRawIdentifier() : "";
    }
    return true;
  }

  StringRef Directive; ///< "" in code, the directive's name otherwise
  unsigned Pos = 0;    ///< position in the directive: 0 = `#`, 1 = name
  unsigned Line = 0;   ///< lines started so far
  SourceLocation DirectiveLoc;

private:
  std::optional<Lexer> L;
  bool Done = false;
};

/// Forwards the preprocessor's view of the main file to the check.
class Callbacks : public PPCallbacks {
public:
  Callbacks(const SourceManager &SM, const Preprocessor &PP,
            std::function<void(SourceLocation, SourceLocation)> Scan,
            std::function<void(SourceLocation)> CodeUse)
      : SM(SM), PP(PP), Scan(std::move(Scan)), CodeUse(std::move(CodeUse)) {}

  // Active conditional directives: their own line.
  void If(SourceLocation Loc, SourceRange, ConditionValueKind) override {
    directive(Loc);
  }
  void Elif(SourceLocation Loc, SourceRange, ConditionValueKind,
            SourceLocation) override {
    directive(Loc);
  }
  void Ifdef(SourceLocation Loc, const Token &,
             const MacroDefinition &) override {
    directive(Loc);
  }
  void Ifndef(SourceLocation Loc, const Token &,
              const MacroDefinition &) override {
    directive(Loc);
  }
  void Elifdef(SourceLocation Loc, const Token &,
               const MacroDefinition &) override {
    directive(Loc);
  }
  void Elifdef(SourceLocation Loc, SourceRange, SourceLocation) override {
    directive(Loc);
  }
  void Elifndef(SourceLocation Loc, const Token &,
                const MacroDefinition &) override {
    directive(Loc);
  }
  void Elifndef(SourceLocation Loc, SourceRange, SourceLocation) override {
    directive(Loc);
  }
  // Skipped blocks: everything in them, as written.
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    if (isWrittenInRewrittenFile(SM, Range.getBegin()))
      Scan(Range.getBegin(), Range.getEnd());
  }
  // Active code and macro bodies, when the macro is defined.
  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange,
                    const MacroArgs *) override {
    if (Name.getIdentifierInfo()->getName() == WavefrontMacro &&
        Name.getLocation().isFileID() &&
        isWrittenInRewrittenFile(SM, Name.getLocation()) &&
        !PP.isParsingIfOrElifDirective())
      CodeUse(Name.getLocation());
  }
  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    if (!isWrittenInRewrittenFile(SM, Name.getLocation()))
      return;
    for (const Token &T : MD->getMacroInfo()->tokens())
      if (T.is(tok::identifier) &&
          T.getIdentifierInfo()->getName() == WavefrontMacro)
        CodeUse(T.getLocation());
  }

private:
  void directive(SourceLocation Loc) {
    if (isWrittenInRewrittenFile(SM, Loc))
      Scan(Loc, SourceLocation());
  }

  const SourceManager &SM;
  const Preprocessor &PP;
  std::function<void(SourceLocation, SourceLocation)> Scan;
  std::function<void(SourceLocation)> CodeUse;
};

} // namespace

void WavefrontSizeMacroCheck::registerPPCallbacks() {
  Preprocessor &PP = Ctx.CI.getPreprocessor();
  PP.addPPCallbacks(std::make_unique<Callbacks>(
      Ctx.CI.getSourceManager(), PP,
      [this](SourceLocation B, SourceLocation E) { scan(B, E); },
      [this](SourceLocation Loc) { reportCodeUse(Loc); }));
}

void WavefrontSizeMacroCheck::scan(SourceLocation Begin, SourceLocation End) {
  const SourceManager &SM = Ctx.CI.getSourceManager();
  LineLexer L(SM, Ctx.CI.getLangOpts(), Begin);
  unsigned EndOffset = End.isValid() ? SM.getFileOffset(End) : ~0u;
  Token T;
  while (L.next(T) && SM.getFileOffset(T.getLocation()) < EndOffset) {
    if (End.isInvalid() && L.Line > 1)
      break; // One directive line only.
    check(T, L.Directive, L.Pos, L.DirectiveLoc);
  }
}

void WavefrontSizeMacroCheck::check(const Token &T, StringRef Directive,
                                    unsigned Pos, SourceLocation DirectiveLoc) {
  if (!T.is(tok::raw_identifier))
    return;
  StringRef Name = T.getRawIdentifier();
  SourceLocation Loc = T.getLocation();
  if (Name == WavefrontMacro && isConditional(Directive)) {
    warning(Loc, "'__AMDGCN_WAVEFRONT_SIZE__' in a preprocessor condition: "
                 "ROCm 7.2 removed the macro");
    note(Loc, "the wavefront width is not a preprocessor constant; test "
              "hpp::getWarpSize() in code (MVECTOR_MAX / MVECTOR_MIN are the "
              "compile-time bounds)");
  } else if (Name == WavefrontMacro &&
             (Directive.empty() || (Directive == "define" && Pos > 2))) {
    reportCodeUse(Loc);
  } else if (isTargetMacro(Name) && isConditional(Directive) && Pos > 1 &&
             LastTargetTest != DirectiveLoc &&
             chainMentionsWidth(DirectiveLoc)) {
    LastTargetTest = DirectiveLoc; // One report per directive.
    warning(Loc,
            "target macro '" + Name.str() + "' used as a wavefront-width test");
    note(Loc, "wave64 vs wave32 is per target, not per GPU family (gfx90a: "
              "64, gfx1030: 32); use hpp::getWarpSize() in code");
  }
}

bool WavefrontSizeMacroCheck::chainMentionsWidth(SourceLocation DirectiveLoc) {
  LineLexer L(Ctx.CI.getSourceManager(), Ctx.CI.getLangOpts(), DirectiveLoc);
  Token T;
  int Depth = 0;
  while (L.next(T)) {
    if (L.Line > 1 && L.Pos == 1) { // A later directive's name.
      if (L.Directive == "if" || L.Directive == "ifdef" ||
          L.Directive == "ifndef")
        ++Depth;
      else if (L.Directive == "endif" && Depth-- == 0)
        return false;
    }
    if (mentionsWidth(T))
      return true;
  }
  return false;
}

void WavefrontSizeMacroCheck::reportCodeUse(SourceLocation Loc) {
  warning(Loc, "'__AMDGCN_WAVEFRONT_SIZE__' was removed in ROCm 7.2; use "
               "hpp::getWarpSize()")
      << FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Loc, Loc),
                                      "hpp::getWarpSize()");
}

} // namespace rewrite
} // namespace hpp
