//===- IncludeRule.cpp - <hpp/hpp.h> becomes <hpp/runtime.h> --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/IncludeRule.h"
#include "Framework/RewriteScope.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
/// Watches the main file's #include directives.
class IncludeCallbacks : public PPCallbacks {
public:
  IncludeCallbacks(const CompilerInstance &CI, EditCollector &Edits,
                   RuleDiagnostics &Diags, StringRef Rule,
                   bool AbsoluteIncludes, bool MirroredHeaders)
      : SM(CI.getSourceManager()), LangOpts(CI.getLangOpts()), Edits(Edits),
        Diags(Diags), Rule(Rule), AbsoluteIncludes(AbsoluteIncludes),
        MirroredHeaders(MirroredHeaders) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef Name,
                          bool IsAngled, CharSourceRange FilenameRange,
                          OptionalFileEntryRef File, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind FileType) override {
    if (Name != "hpp/hpp.h") {
      if (MirroredHeaders && File && !SrcMgr::isSystem(FileType) &&
          isWrittenInRewrittenFile(SM, HashLoc))
        nameMirroredHeader(HashLoc, FilenameRange, Name, *File);
      if (!IsAngled && SM.isWrittenInMainFile(HashLoc))
        pinToSourceDirectory(FilenameRange, Name, File, "#include");
      return;
    }
    if (SM.isInSystemHeader(HashLoc))
      return;
    if (!isWrittenInRewrittenFile(SM, HashLoc)) {
      // Through a header outside the project, which the output keeps as
      // written: it would bring the CPU reference in beside the device
      // runtime.
      SourceLocation Inc = HashLoc;
      while (Inc.isValid() && !isWrittenInRewrittenFile(SM, Inc))
        Inc = SM.getIncludeLoc(SM.getFileID(Inc));
      std::string Header =
          llvm::sys::path::filename(SM.getFilename(HashLoc)).str();
      const RewriteScope *Scope = RewriteScope::of(SM);
      Diags.error(Inc.isValid() ? Inc : HashLoc, Rule,
                  "'hpp/hpp.h' is included through '" + Header +
                      "', which hpp-rewrite does not rewrite (" +
                      (Scope && !Scope->root().empty()
                           ? "it lies outside the project root '" +
                                 Scope->root().str() + "'"
                           : std::string("no project root")) +
                      "): the output would include the CPU reference beside "
                      "the device runtime; give a root that holds '" +
                      Header + "' (--root)");
      Diags.note(HashLoc, "'" + Header + "' includes it here");
      return;
    }
    Edits.replace(FilenameRange,
                  IsAngled ? "<hpp/runtime.h>" : "\"hpp/runtime.h\"", Rule);
  }

  void HasInclude(SourceLocation Loc, StringRef Name, bool IsAngled,
                  OptionalFileEntryRef File,
                  SrcMgr::CharacteristicKind) override {
    if (IsAngled || !AbsoluteIncludes)
      return;
    SourceLocation Spelled = SM.getSpellingLoc(Loc);
    if (!SM.isWrittenInMainFile(Spelled))
      return;
    unsigned Length = Lexer::MeasureTokenLength(Spelled, SM, LangOpts);
    pinToSourceDirectory(
        CharSourceRange::getCharRange(Loc, Loc.getLocWithOffset(Length)), Name,
        File, "__has_include");
  }

  /// `__device(...)` in a project header: dialect code the output would
  /// keep as written (a parallelFor body carries it too).
  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange,
                    const MacroArgs *) override {
    SourceLocation Loc = Name.getLocation();
    if (Name.getIdentifierInfo()->getName() == "__device" && Loc.isFileID() &&
        !isWrittenInRewrittenFile(SM, Loc) && !SM.isInSystemHeader(Loc))
      Edits.refuseHeader(Loc, Rule);
  }

private:
  /// With the project headers written beside the outputs (--output-dir):
  /// a project header that the include path found, not the directory of
  /// the file that includes it, is named by its path relative to that
  /// directory, which the output tree keeps: the output then includes the
  /// rewritten header, whatever include directories its compile has.
  void nameMirroredHeader(SourceLocation HashLoc, CharSourceRange Range,
                          StringRef Name, FileEntryRef File) {
    const RewriteScope *Scope = RewriteScope::of(SM);
    FileManager &FM = SM.getFileManager();
    if (!Scope || !Scope->isUnderRoot(FM.getCanonicalName(File)))
      return;
    OptionalFileEntryRef Includer =
        SM.getFileEntryRefForID(SM.getFileID(HashLoc));
    if (!Includer)
      return;
    SmallString<256> Beside(Includer->getDir().getName());
    llvm::sys::path::append(Beside, Name);
    OptionalFileEntryRef There = FM.getOptionalFileRef(Beside);
    if (There && &There->getFileEntry() == &File.getFileEntry())
      return; // Found beside it, as it will be in the output tree.
    llvm::StringRef From =
        llvm::sys::path::parent_path(FM.getCanonicalName(*Includer));
    llvm::StringRef To = FM.getCanonicalName(File);
    SmallVector<llvm::StringRef, 16> A(llvm::sys::path::begin(From),
                                       llvm::sys::path::end(From));
    SmallVector<llvm::StringRef, 16> B(llvm::sys::path::begin(To),
                                       llvm::sys::path::end(To));
    size_t Common = 0;
    while (Common < A.size() && Common + 1 < B.size() && A[Common] == B[Common])
      ++Common;
    std::string Relative;
    for (size_t I = Common; I < A.size(); ++I)
      Relative += "../";
    for (size_t I = Common; I < B.size(); ++I)
      Relative += (I > Common ? "/" : "") + B[I].str();
    if (Relative.find_first_of("\"\n\\") != std::string::npos ||
        !Range.getBegin().isFileID() || !Range.getEnd().isFileID()) {
      Diags.error(SM.getExpansionLoc(Range.getBegin()), Rule,
                  ("'" + Name +
                   "' is a project header that the include path finds: the "
                   "output must name the rewritten one by its path, and "
                   "cannot here (the name comes from a macro, or the path "
                   "holds '\"', '\\' or a newline)")
                      .str());
      return;
    }
    Edits.replace(Range, "\"" + Relative + "\"", Rule);
  }

  /// With --absolute-includes: the quoted header name at \p Range of the
  /// main file, when it names \p File beside the main file, becomes that
  /// file's absolute path (the output is compiled from another directory,
  /// which a quoted name is looked up in first).
  void pinToSourceDirectory(CharSourceRange Range, StringRef Name,
                            OptionalFileEntryRef File, StringRef What) {
    if (!AbsoluteIncludes || !File || llvm::sys::path::is_absolute(Name))
      return;
    // A project header is written beside the output, as it lies beside the
    // source: the name finds the rewritten one there.
    if (MirroredHeaders)
      if (const RewriteScope *Scope = RewriteScope::of(SM))
        if (Scope->isUnderRoot(SM.getFileManager().getCanonicalName(*File)))
          return;
    OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    if (!Main)
      return;
    FileManager &FM = SM.getFileManager();
    SmallString<256> Beside(Main->getDir().getName());
    llvm::sys::path::append(Beside, Name);
    OptionalFileEntryRef There = FM.getOptionalFileRef(Beside);
    if (!There || &There->getFileEntry() != &File->getFileEntry())
      return; // Found through the include path, as it will be again.
    FM.makeAbsolutePath(Beside);
    const SourceLocation Loc = Range.getBegin();
    if (Beside.str().find_first_of("\"\n") != StringRef::npos) {
      Diags.error(SM.getExpansionLoc(Loc), Rule,
                  ("'" + Name +
                   "' is found beside this file, at a path that "
                   "a quoted #include cannot name ('\"' or a newline in it); "
                   "the output, compiled elsewhere (--absolute-includes), "
                   "would not find it")
                      .str());
      return;
    }
    if (!Loc.isFileID() || !Range.getEnd().isFileID() ||
        !SM.isWrittenInMainFile(Loc)) {
      Diags.error(SM.getExpansionLoc(Loc), Rule,
                  ("'" + Name +
                   "' is found beside this file, and the output, compiled "
                   "elsewhere (--absolute-includes), would not find it: "
                   "write the name in the " +
                   What + " itself, not through a macro")
                      .str());
      return;
    }
    Edits.replace(Range, "\"" + Beside.str().str() + "\"", Rule);
  }

  const SourceManager &SM;
  const LangOptions &LangOpts;
  EditCollector &Edits;
  RuleDiagnostics &Diags;
  StringRef Rule;
  bool AbsoluteIncludes;
  bool MirroredHeaders;
};
} // namespace

void IncludeRule::registerPPCallbacks() {
  Ctx.CI.getPreprocessor().addPPCallbacks(std::make_unique<IncludeCallbacks>(
      Ctx.CI, Ctx.Edits, Ctx.Diags, Name, Ctx.Options.AbsoluteIncludes,
      Ctx.Options.MirroredHeaders));
}

} // namespace rewrite
} // namespace hpp
