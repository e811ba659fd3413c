//===- EditCollector.cpp - Per-file replacements --------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/EditCollector.h"
#include "Framework/LineDirectives.h"
#include "Framework/RewriteScope.h"
#include "hpp-rewrite/LineDirective.h"

#include "clang/Lex/Lexer.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace clang;

namespace hpp {
namespace rewrite {

bool EditCollector::replace(CharSourceRange Range, llvm::StringRef Text,
                            llvm::StringRef Rule) {
  SourceLocation Begin = Range.getBegin();
  if (Begin.isMacroID() || Range.getEnd().isMacroID()) {
    Diags.warning(SM.getExpansionLoc(Begin), Rule,
                  "code inside a macro expansion is left unchanged");
    return false;
  }
  if (!isWrittenInRewrittenFile(SM, Begin)) {
    refuseHeader(Begin, Rule); // Only project headers are rewritten.
    return false;
  }
  CharSourceRange FileRange =
      Lexer::makeFileCharRange(Range, SM, LangOptions());
  if (FileRange.isInvalid()) {
    Diags.warning(Begin, Rule, "cannot rewrite this source range");
    return false;
  }
  tooling::Replacement R(SM, FileRange, Text);
  Files.try_emplace(R.getFilePath().str(), SM.getFileID(FileRange.getBegin()));
  if (llvm::Error Err = PerFile[std::string(R.getFilePath())].add(R)) {
    llvm::consumeError(std::move(Err));
    reportConflict(Begin, R.getFilePath(), R.getOffset(), R.getLength(), Rule);
    return false;
  }
  ++Count;
  auto [FID, Offset] = SM.getDecomposedLoc(FileRange.getBegin());
  EditRecord Record;
  Record.Rule = Rule.str();
  Record.File = R.getFilePath().str();
  Record.Offset = R.getOffset();
  Record.Length = R.getLength();
  Record.Line = SM.getLineNumber(FID, Offset);
  Record.Column = SM.getColumnNumber(FID, Offset);
  Record.Text = Text.str();
  Records.push_back(std::move(Record));
  return true;
}

void EditCollector::reportConflict(SourceLocation Loc, llvm::StringRef File,
                                   unsigned Offset, unsigned Length,
                                   llvm::StringRef Rule) {
  // The edit it collides with: the last one in place whose bytes meet
  // these (an insertion counts as the byte after it).
  const EditRecord *Other = nullptr;
  for (const EditRecord &E : Records)
    if (!E.Moved && E.File == File &&
        E.Offset < Offset + std::max(Length, 1u) &&
        Offset < E.Offset + std::max(E.Length, 1u))
      Other = &E;
  Diags.error(Loc, Rule,
              "internal error: this edit collides with " +
                  (Other ? "an edit of '" + Other->Rule + "'"
                         : std::string("another edit")) +
                  "; the file is not rewritten (please report this, with "
                  "the input)");
  if (Other)
    Diags.note(SM.getLocForStartOfFile(SM.getFileID(SM.getFileLoc(Loc)))
                   .getLocWithOffset(Other->Offset),
               "the edit of '" + Other->Rule + "' (" +
                   std::to_string(Other->Length) + " bytes replaced) is here");
}

void EditCollector::refuseHeader(SourceLocation Loc, llvm::StringRef Rule) {
  // Dialect code there would reach the output as written. The dialect's
  // and the system's headers need no rewrite.
  SourceLocation File = SM.getFileLoc(Loc);
  if (SM.isInSystemHeader(File) || isWrittenInRewrittenFile(SM, File) ||
      !RefusedHeaders.insert(SM.getFilename(File).str()).second)
    return;
  const RewriteScope *Scope = RewriteScope::of(SM);
  const std::string Root = Scope ? Scope->root().str() : std::string();
  Diags.error(
      File, Rule,
      "cannot rewrite code in '" +
          llvm::sys::path::filename(SM.getFilename(File)).str() + "': " +
          (Root.empty() ? std::string("hpp-rewrite rewrites only the file it "
                                      "is given; move the dialect code of "
                                      "this header into that file")
                        : "it lies outside the project root '" + Root +
                              "', and hpp-rewrite rewrites only the sources "
                              "and the headers under the root; give a root "
                              "that holds it (--root)"));
}

bool EditCollector::insert(SourceLocation Loc, llvm::StringRef Text,
                           llvm::StringRef Rule) {
  return replace(CharSourceRange::getCharRange(Loc, Loc), Text, Rule);
}

tooling::Replacements EditCollector::extract(CharSourceRange Range) {
  tooling::Replacements Inside;
  CharSourceRange FileRange =
      Lexer::makeFileCharRange(Range, SM, LangOptions());
  if (FileRange.isInvalid())
    return Inside;
  std::pair<FileID, unsigned> Decomposed =
      SM.getDecomposedLoc(FileRange.getBegin());
  FileID FID = Decomposed.first;
  unsigned Begin = Decomposed.second;
  unsigned End = SM.getFileOffset(FileRange.getEnd());
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(FID);
  if (!Entry)
    return Inside;
  auto It = PerFile.find(std::string(Entry->getName()));
  if (It == PerFile.end())
    return Inside;
  auto IsInside = [&](const tooling::Replacement &R) {
    return R.getOffset() >= Begin && R.getOffset() + R.getLength() <= End;
  };
  if (llvm::none_of(It->second, IsInside))
    return Inside; // The common case: nothing to move, nothing to rebuild.
  for (EditRecord &R : Records)
    if (!R.Moved && R.File == It->first && R.Offset >= Begin &&
        R.Offset + R.Length <= End)
      R.Moved = true;
  tooling::Replacements Outside;
  for (const tooling::Replacement &R : It->second) {
    bool In = IsInside(R);
    llvm::Error Err = In ? Inside.add(tooling::Replacement(
                               R.getFilePath(), R.getOffset() - Begin,
                               R.getLength(), R.getReplacementText()))
                         : Outside.add(R);
    llvm::consumeError(std::move(Err)); // Disjoint by construction.
  }
  It->second = std::move(Outside);
  return Inside;
}

void EditCollector::syncLines(const LineDirectives &Lines,
                              llvm::StringRef Rule) {
  FileID Main = SM.getMainFileID();
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(Main);
  if (!Entry)
    return;
  auto It = PerFile.find(std::string(Entry->getName()));
  if (It == PerFile.end())
    return;
  std::vector<unsigned> Added;
  It->second =
      Lines.synced(It->second, 0, SM.getBufferData(Main).size(), &Added);
  for (unsigned Offset : Added) {
    EditRecord Record;
    Record.Rule = Rule.str();
    Record.File = It->first;
    Record.Offset = Offset;
    Record.Line = SM.getLineNumber(Main, Offset);
    Record.Column = 1;
    // Offset 0 holds the top directive, which carries the output's mark.
    Record.Text =
        Offset == 0 ? Lines.topDirective() : Lines.directiveAt(Offset);
    Records.push_back(std::move(Record));
  }
}

/// \p Text with every line ending `\r\n`.
static std::string withCRLF(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size() + Text.size() / 32);
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\n' && (I == 0 || Text[I - 1] != '\r'))
      Out += '\r';
    Out += Text[I];
  }
  return Out;
}

/// Whether \p Code's lines end with `\r\n` (most of them).
static bool isCRLF(llvm::StringRef Code) {
  return Code.count("\r\n") * 2 > Code.count('\n');
}

std::optional<std::string> EditCollector::applyToMainFile() {
  FileID Main = SM.getMainFileID();
  llvm::StringRef Code = SM.getBufferData(Main);
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(Main);
  if (!Entry)
    return Code.str();
  auto It = PerFile.find(std::string(Entry->getName()));
  if (It == PerFile.end())
    return Code.str();
  return apply(Main, Code, It->second);
}

std::optional<std::string>
EditCollector::apply(FileID File, llvm::StringRef Code,
                     const tooling::Replacements &Edits) {
  llvm::Expected<std::string> Result =
      tooling::applyAllReplacements(Code, Edits);
  if (Result && isCRLF(Code))
    *Result = withCRLF(*Result); // The file's line endings, for every line.
  if (!Result) {
    Diags.error(SM.getLocForStartOfFile(File), "hpp-rewrite",
                "internal error: cannot apply edits: " +
                    llvm::toString(Result.takeError()));
    return std::nullopt;
  }
  return *Result;
}

std::optional<std::vector<RewrittenHeader>>
EditCollector::applyToHeaders(llvm::StringRef Rule) {
  std::vector<RewrittenHeader> Headers;
  bool Ok = true;
  for (const auto &[Name, Edits] : PerFile) {
    auto Found = Files.find(Name);
    if (Found == Files.end() || Found->second == SM.getMainFileID() ||
        Edits.empty())
      continue;
    FileID FID = Found->second;
    llvm::StringRef Code = SM.getBufferData(FID);
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(FID);
    const std::string Real =
        Entry ? std::string(SM.getFileManager().getCanonicalName(*Entry))
              : Name;
    std::optional<tooling::Replacements> Synced =
        syncHeaderLines(FID, Code, Edits, Real, Rule);
    if (!Synced) {
      Ok = false;
      continue;
    }
    std::optional<std::string> Text = apply(FID, Code, *Synced);
    if (!Text) {
      Ok = false;
      continue;
    }
    RewrittenHeader H;
    H.File = Real;
    const bool CRLF = isCRLF(Code);
    H.Top = outputFirstLine(H.File, CRLF);
    H.Text = H.Top + *Text;
    tooling::Replacements WithTop;
    llvm::consumeError(WithTop.add(tooling::Replacement(H.File, 0, 0, H.Top)));
    for (const tooling::Replacement &R : *Synced) {
      std::string T = R.getReplacementText().str();
      H.Edits.emplace_back(H.File, R.getOffset(), R.getLength(),
                           CRLF ? withCRLF(T) : T);
      llvm::consumeError(WithTop.add(H.Edits.back()));
    }
    H.Fixes = fixesFor(H.File, Code, WithTop, H.Text);
    Headers.push_back(std::move(H));
  }
  if (!Ok)
    return std::nullopt;
  return Headers;
}

std::optional<tooling::Replacements>
EditCollector::syncHeaderLines(FileID File, llvm::StringRef Code,
                               const tooling::Replacements &Edits,
                               llvm::StringRef Name, llvm::StringRef Rule) {
  auto LineAt = [&](unsigned Offset) {
    return unsigned(Code.take_front(Offset).count('\n')) + 1;
  };
  std::vector<tooling::Replacement> Out;
  std::map<unsigned, std::string> Directives;
  bool Ok = true;
  for (const tooling::Replacement &R : Edits) {
    const unsigned End = R.getOffset() + R.getLength();
    if (R.getReplacementText().count('\n') ==
        Code.substr(R.getOffset(), R.getLength()).count('\n')) {
      Out.push_back(R);
      continue;
    }
    // Text inserted at the start of a line (a kernel) ends with the
    // directive that numbers that line as the input does.
    if (R.getLength() == 0 && (End == 0 || Code[End - 1] == '\n')) {
      std::string Text = R.getReplacementText().str();
      if (!llvm::StringRef(Text).ends_with("\n"))
        Text += '\n';
      Out.emplace_back(R.getFilePath(), R.getOffset(), 0,
                       Text + lineDirective(LineAt(End), Name));
      continue;
    }
    Out.push_back(R);
    // Otherwise the directive starts the next line, when the rest of this
    // one cannot hold it in a comment, a literal or a continued line.
    const size_t Eol = Code.find('\n', End);
    if (Eol == llvm::StringRef::npos)
      continue; // The last line: nothing follows to number.
    llvm::StringRef Rest = Code.slice(End, Eol);
    llvm::StringRef Code0 = Rest.split("//").first;
    if (Code0.contains("/*") || Code0.contains('"') || Code0.contains('\'') ||
        Rest.ends_with("\\") || Rest.ends_with("\\\r")) {
      Diags.error(SM.getLocForStartOfFile(File).getLocWithOffset(End), Rule,
                  "internal error: this edit of a project header changes its "
                  "number of lines, and the rest of the line cannot be "
                  "followed by a '#line' directive; the file is not "
                  "rewritten (please report this, with the input)");
      Ok = false;
      continue;
    }
    Directives[unsigned(Eol) + 1] = lineDirective(LineAt(Eol + 1), Name);
  }
  if (!Ok)
    return std::nullopt;
  tooling::Replacements Synced;
  for (const auto &[Offset, Text] : Directives)
    Out.emplace_back(std::string(Out.front().getFilePath()), Offset, 0, Text);
  for (const tooling::Replacement &R : Out)
    if (llvm::Error Err = Synced.add(R)) {
      llvm::consumeError(std::move(Err));
      Diags.error(SM.getLocForStartOfFile(File).getLocWithOffset(R.getOffset()),
                  Rule,
                  "internal error: a '#line' directive of a project header "
                  "collides with an edit; the file is not rewritten (please "
                  "report this, with the input)");
      return std::nullopt;
    }
  return Synced;
}

std::vector<tooling::Replacement>
EditCollector::mainFileFixes(llvm::StringRef Result) const {
  FileID Main = SM.getMainFileID();
  llvm::StringRef Code = SM.getBufferData(Main);
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(Main);
  if (!Entry || Code == Result)
    return {};
  std::string Path(Entry->getName());
  auto It = PerFile.find(Path);
  return fixesFor(Path, Code,
                  It != PerFile.end() ? It->second : tooling::Replacements(),
                  Result);
}

std::vector<tooling::Replacement>
EditCollector::fixesFor(llvm::StringRef Path, llvm::StringRef Code,
                        const tooling::Replacements &Made,
                        llvm::StringRef Result) {
  std::vector<tooling::Replacement> Fixes;
  if (Code == Result)
    return Fixes;
  bool CRLF = isCRLF(Code);
  tooling::Replacements Edits;
  for (const tooling::Replacement &R : Made) {
    std::string Text = R.getReplacementText().str();
    llvm::consumeError(Edits.add(tooling::Replacement(
        Path, R.getOffset(), R.getLength(), CRLF ? withCRLF(Text) : Text)));
  }
  llvm::Expected<std::string> Applied =
      tooling::applyAllReplacements(Code, Edits);
  if (Applied && *Applied == Result)
    return std::vector<tooling::Replacement>(Edits.begin(), Edits.end());
  if (!Applied)
    llvm::consumeError(Applied.takeError());
  // One replacement: the span between the common prefix and suffix.
  size_t Prefix = 0;
  while (Prefix < Code.size() && Prefix < Result.size() &&
         Code[Prefix] == Result[Prefix])
    ++Prefix;
  size_t Suffix = 0;
  while (Suffix < Code.size() - Prefix && Suffix < Result.size() - Prefix &&
         Code[Code.size() - 1 - Suffix] == Result[Result.size() - 1 - Suffix])
    ++Suffix;
  Fixes.emplace_back(Path, Prefix, Code.size() - Prefix - Suffix,
                     Result.substr(Prefix, Result.size() - Prefix - Suffix));
  return Fixes;
}

} // namespace rewrite
} // namespace hpp
