//===- LineDirectives.cpp - The output keeps the input's line numbers -----===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Framework/LineDirectives.h"
#include "Framework/Conditionals.h"
#include "hpp-rewrite/LineDirective.h"

#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/Support/Error.h"

#include <algorithm>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
using RangeList = std::vector<std::pair<unsigned, unsigned>>;

/// Records the main file's function-like macro invocations (a directive
/// between their arguments' lines is undefined) and the branches the
/// parse skipped.
class InvocationCallbacks : public PPCallbacks {
public:
  InvocationCallbacks(const SourceManager &SM, std::shared_ptr<RangeList> Out)
      : SM(SM), Out(std::move(Out)) {}

  /// A branch the parse skipped: no directive goes there (the lines after
  /// it would keep the output's numbers).
  void SourceRangeSkipped(SourceRange Range, SourceLocation EndifLoc) override {
    if (Range.getBegin().isMacroID() ||
        !SM.isWrittenInMainFile(Range.getBegin()))
      return;
    Out->push_back({SM.getFileOffset(Range.getBegin()) + 1,
                    SM.getFileOffset(Range.getEnd()) + 1});
  }

  void MacroExpands(const Token &, const MacroDefinition &, SourceRange Range,
                    const MacroArgs *Args) override {
    if (!Args || Range.getBegin().isMacroID() || Range.getEnd().isMacroID() ||
        !SM.isWrittenInMainFile(Range.getBegin()))
      return;
    unsigned Begin = SM.getFileOffset(Range.getBegin());
    unsigned End = SM.getFileOffset(Range.getEnd()) + 1; // After the `)`.
    Out->push_back({Begin + 1, End});
  }

private:
  const SourceManager &SM;
  std::shared_ptr<RangeList> Out;
};
} // namespace

LineDirectives::LineDirectives(const SourceManager &SM,
                               const LangOptions &LangOpts)
    : SM(SM), LangOpts(LangOpts), Main(SM.getMainFileID()),
      Code(SM.getBufferData(Main)), Invocations(std::make_shared<RangeList>()) {
}

LineDirectives::~LineDirectives() = default;

void LineDirectives::record(Preprocessor &PP) {
  Conditionals = ConditionalBlocks::record(PP);
  PP.addPPCallbacks(std::make_unique<InvocationCallbacks>(SM, Invocations));
}

void LineDirectives::lexOnce() const {
  if (Lexed)
    return;
  Lexed = true;
  // Comments and literals that span lines (block comments, raw strings,
  // continued literals).
  Lexer L(SM.getLocForStartOfFile(Main), LangOpts, Code.begin(), Code.begin(),
          Code.end());
  L.SetCommentRetentionState(true);
  Token T;
  while (!L.LexFromRawLexer(T)) {
    unsigned Begin = SM.getFileOffset(T.getLocation());
    unsigned End = Begin + T.getLength();
    if (Code.substr(Begin, End - Begin).contains('\n'))
      Unsafe.push_back({Begin + 1, End});
  }
  llvm::append_range(Unsafe, *Invocations);
  llvm::sort(Unsafe);
}

bool LineDirectives::canInsertAt(unsigned Offset) const {
  if (Offset == 0)
    return true;
  if (Offset > Code.size() || Code[Offset - 1] != '\n')
    return false;
  // Not a continued line.
  unsigned Before = Offset - 1;
  if (Before > 0 && Code[Before - 1] == '\r')
    --Before;
  if (Before > 0 && Code[Before - 1] == '\\')
    return false;
  lexOnce();
  for (const auto &[Begin, End] : Unsafe) {
    if (Begin > Offset)
      break;
    if (Offset < End)
      return false;
  }
  return true;
}

unsigned LineDirectives::blockEnd(unsigned Offset, unsigned Base) const {
  unsigned End = 0;
  if (!Conditionals)
    return End;
  for (const ConditionalBlocks::Block &B : Conditionals->Blocks) {
    unsigned If = SM.getFileOffset(B.If);
    unsigned Endif = SM.getFileOffset(B.Endif);
    if (If < Base || Offset <= If || Offset > Endif)
      continue;
    size_t Eol = Code.find('\n', Endif);
    End = std::max<unsigned>(End, Eol == llvm::StringRef::npos ? Code.size()
                                                               : Eol + 1);
  }
  return End;
}

unsigned LineDirectives::lineAt(unsigned Offset) const {
  return SM.getPresumedLoc(SM.getComposedLoc(Main, Offset)).getLine();
}

std::string LineDirectives::directiveAt(unsigned Offset) const {
  PresumedLoc PL = SM.getPresumedLoc(SM.getComposedLoc(Main, Offset));
  return lineDirective(PL.getLine(), PL.getFilename());
}

std::string LineDirectives::topDirective() const {
  return outputFirstLine(
      SM.getPresumedLoc(SM.getComposedLoc(Main, 0)).getFilename());
}

std::optional<std::pair<unsigned, unsigned>>
LineDirectives::lastDirective(llvm::StringRef Text) {
  std::optional<std::pair<unsigned, unsigned>> Last;
  for (size_t Pos = 0; Pos < Text.size();) {
    size_t Eol = Text.find('\n', Pos);
    if (Eol == llvm::StringRef::npos)
      break; // An unfinished line continues in the input's text.
    llvm::StringRef L = Text.slice(Pos, Eol).ltrim(" \t");
    unsigned N = 0;
    bool IsLine = false;
    if (L.consume_front("#")) {
      L = L.ltrim(" \t");
      if (L.consume_front("line") && !L.empty() &&
          (L[0] == ' ' || L[0] == '\t')) {
        llvm::StringRef Number = L.ltrim(" \t");
        IsLine = !Number.consumeInteger(10, N);
      }
    }
    if (IsLine)
      Last = {N, 0};
    else if (Last)
      ++Last->second;
    Pos = Eol + 1;
  }
  return Last;
}

tooling::Replacements
LineDirectives::synced(const tooling::Replacements &Edits, unsigned Base,
                       unsigned End, std::vector<unsigned> *Added) const {
  std::vector<tooling::Replacement> Rs(Edits.begin(), Edits.end());
  std::vector<std::string> Texts;
  for (const tooling::Replacement &R : Rs)
    Texts.push_back(R.getReplacementText().str());
  std::vector<std::pair<unsigned, std::string>> Inserts; // Absolute.
  // Shift: the output's line number less the input's at the current
  // point; a directive goes at the first safe line. Force: a directive
  // went inside an #if block, which another build may skip; the first safe
  // line from offset Force on gets one anyway.
  long Shift = 0;
  unsigned Force = 0;
  auto Placed = [&](unsigned P) {
    if (Added)
      Added->push_back(P);
    Shift = 0;
    if (P >= Force)
      Force = 0;
    Force = std::max(Force, blockEnd(P, Base));
  };
  if (Base == 0 && !Rs.empty()) {
    // The whole output names the input: `__FILE__` before the first edit
    // too (includes are still found next to the output). The mark after
    // it tells the tool its own outputs (Driver.h, OutputMark).
    std::string Top = topDirective();
    if (Rs.front().getOffset() == 0)
      Texts.front() = Top + Texts.front();
    else
      Inserts.push_back({0, Top});
    Placed(0);
  }
  unsigned Pos = Base;
  for (size_t I = 0; I <= Rs.size(); ++I) {
    unsigned Next = I < Rs.size() ? Base + Rs[I].getOffset() : End;
    // The first safe line start in the copied text (Pos, Next]; the text
    // before it keeps a shifted number.
    const bool Shifted = Shift != 0;
    unsigned DriftEnd = Next;
    for (unsigned P = Pos + 1; (Shift || Force) && P <= Next; ++P) {
      if (P > Code.size() || Code[P - 1] != '\n' || (!Shift && P < Force) ||
          !canInsertAt(P))
        continue;
      if (P == Next && I < Rs.size())
        Texts[I] = directiveAt(P) + Texts[I];
      else
        Inserts.push_back({P, directiveAt(P)});
      if (Shift)
        DriftEnd = P;
      Placed(P);
    }
    if (Shifted && Pos < DriftEnd)
      Drifted.push_back({Pos, DriftEnd});
    if (I == Rs.size())
      break;
    unsigned Begin = Base + Rs[I].getOffset();
    unsigned Stop = Begin + Rs[I].getLength();
    if (Stop > Begin)
      Replaced.push_back({Begin, Stop});
    llvm::StringRef Replaced = Code.substr(Begin, Rs[I].getLength());
    if (auto D = lastDirective(Texts[I])) {
      // The rewrite's own directives (an outlined body's).
      Shift = long(D->first + D->second) - long(lineAt(Stop));
      Force = std::max(Force, blockEnd(Begin, Base));
    } else {
      Shift +=
          long(llvm::count(Texts[I], '\n')) - long(llvm::count(Replaced, '\n'));
    }
    if ((Shift || (Force && Stop >= Force)) && !Texts[I].empty() &&
        Texts[I].back() == '\n' && Stop < End && canInsertAt(Stop)) {
      Texts[I] += directiveAt(Stop);
      Placed(Stop);
    } else if (Shift < 0) {
      // The edit took lines away. Where the next line cannot take a
      // directive (it continues a macro's arguments, a comment, a literal
      // or a line), newlines after the edit keep the count instead: the
      // edit ends between tokens.
      size_t Eol = Code.find('\n', Stop);
      unsigned P = Eol == llvm::StringRef::npos ? End : unsigned(Eol) + 1;
      unsigned After = I + 1 < Rs.size() ? Base + Rs[I + 1].getOffset() : End;
      if (P <= After && P < End && !canInsertAt(P)) {
        size_t Bol = Code.rfind('\n', Begin);
        Bol = Bol == llvm::StringRef::npos ? 0 : Bol + 1;
        llvm::StringRef Line = Code.slice(Bol, Begin);
        Texts[I].append(size_t(-Shift), '\n');
        Texts[I] += Line.take_front(Line.find_first_not_of(" \t")).str();
        Shift = 0;
      }
    }
    Pos = Stop;
  }
  tooling::Replacements Out;
  for (size_t I = 0; I < Rs.size(); ++I)
    llvm::consumeError(Out.add(tooling::Replacement(
        Rs[I].getFilePath(), Rs[I].getOffset(), Rs[I].getLength(), Texts[I])));
  for (const auto &[P, Text] : Inserts)
    llvm::consumeError(Out.add(tooling::Replacement(
        Rs.empty() ? "" : Rs.front().getFilePath(), P - Base, 0, Text)));
  return Out;
}

void LineDirectives::cover(unsigned Begin, unsigned End) const {
  Covered.push_back({Begin, End});
}

bool LineDirectives::drifts(unsigned Offset) const {
  auto In = [Offset](const std::vector<std::pair<unsigned, unsigned>> &V) {
    return llvm::any_of(V, [Offset](const std::pair<unsigned, unsigned> &R) {
      return R.first <= Offset && Offset < R.second;
    });
  };
  if (In(Drifted))
    return true;
  // Inside a replaced range, only a re-emitted body keeps its lines (the
  // body's own edits are in Drifted); an edit inside the body is in both.
  for (const auto &R : Replaced)
    if (R.first <= Offset && Offset < R.second &&
        !llvm::any_of(Covered, [&](const std::pair<unsigned, unsigned> &C) {
          return C.first <= Offset && Offset < C.second && R.first <= C.first &&
                 C.second <= R.second;
        }))
      return true;
  return false;
}

} // namespace rewrite
} // namespace hpp
