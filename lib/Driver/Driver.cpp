//===- Driver.cpp - Rewriting whole files ---------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/Driver.h"
#include "hpp-rewrite/Rule.h"

#include "DialectPCH.h"

#include "Analysis/DeviceCallGraph.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/WidthModel.h"
#include "Framework/CrashRecovery.h"
#include "Framework/LineDirectives.h"
#include "Framework/RewriteScope.h"
#include "Outline/KernelSites.h"
#include "Outline/OutlinePhase.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cassert>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <optional>

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

RuleContext::RuleContext(CompilerInstance &CI, RuleDiagnostics &Diags,
                         EditCollector &Edits)
    : CI(CI), Diags(Diags), Edits(Edits) {}
RuleContext::~RuleContext() = default;

DeviceCallGraph &RuleContext::deviceGraph() {
  if (!Graph)
    Graph = std::make_unique<DeviceCallGraph>(CI.getASTContext());
  return *Graph;
}

const DeviceCodeMap &RuleContext::deviceCode() {
  if (!Code)
    Code = std::make_unique<DeviceCodeMap>(CI.getASTContext(), deviceGraph());
  return *Code;
}

const WidthModel &RuleContext::widthModel() {
  if (!Widths)
    Widths = std::make_unique<WidthModel>(CI.getASTContext(), deviceGraph(),
                                          &Options);
  return *Widths;
}

KernelSites &RuleContext::kernelSites() {
  if (!Sites)
    Sites = std::make_unique<KernelSites>(Diags);
  return *Sites;
}

LineDirectives &RuleContext::lines() {
  if (!Lines)
    Lines = std::make_unique<LineDirectives>(CI.getSourceManager(),
                                             CI.getLangOpts());
  return *Lines;
}

namespace {

/// Keeps the top-level declarations of the rewritten files (the main file
/// and the project headers: RewriteScope.h), and hands the parsed
/// translation unit to the rewrite (RewriteAction::rewrite).
class RewriteConsumer : public ASTConsumer {
public:
  explicit RewriteConsumer(
      std::function<void(ASTContext &, std::vector<Decl *> &)> Rewrite)
      : Rewrite(std::move(Rewrite)) {}

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (isWrittenInRewrittenFile(D->getASTContext().getSourceManager(),
                                   D->getLocation()))
        MainFileDecls.push_back(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Rewrite(Ctx, MainFileDecls);
  }

private:
  std::function<void(ASTContext &, std::vector<Decl *> &)> Rewrite;
  std::vector<Decl *> MainFileDecls;
};

/// Parses one source, runs the rules and stores the rewritten text.
class RewriteAction : public ASTFrontendAction {
public:
  RewriteAction(RewriteOutput &Output, const RuleSelection &Selection,
                const RewriteOptions &Options)
      : Output(Output), Selection(Selection), Options(Options) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    Scope = std::make_unique<RewriteScope>(CI.getSourceManager(),
                                           Options.ProjectRoot);
    Diags = std::make_unique<RuleDiagnostics>(CI.getDiagnostics(), &Selection);
    Edits = std::make_unique<EditCollector>(CI.getSourceManager(), *Diags);
    Ctx = std::make_unique<RuleContext>(CI, *Diags, *Edits);
    Ctx->Options = Options;
    Ctx->lines().record(CI.getPreprocessor());
    Outlining = std::make_unique<OutlinePhase>(CI.getPreprocessor(), *Edits,
                                               *Diags, Ctx->lines());
    Rules = createRules(*Ctx, Selection);
    for (auto &R : Rules) {
      R->registerPPCallbacks();
      R->registerMatchers(Finder);
    }
    return std::make_unique<RewriteConsumer>(
        [this](ASTContext &AST, std::vector<Decl *> &MainFileDecls) {
          rewrite(AST, MainFileDecls);
        });
  }

  /// The rewrite of the parsed translation unit, phase by phase, while
  /// the diagnostics' printer is still in the source file
  /// (FrontendAction::EndSourceFile ends it before EndSourceFileAction
  /// runs). A translation unit with errors, clang's or a rule's, is never
  /// rewritten.
  void rewrite(ASTContext &AST, std::vector<Decl *> &MainFileDecls) {
    if (Diags->hasErrors())
      return;
    // 1. The rules' matchers. Only the main file and the project headers
    // are rewritten: matchers and visitors need not walk the other headers
    // (the dialect header alone is most of the AST).
    AST.setTraversalScope(MainFileDecls);
    Finder.matchAST(AST);
    // Testing only (test/tool/clang-crash.test, test/fuzz/smoke.test): a
    // crash in the tool's own code, as a rule's bug would make one.
    if (const char *Crash = std::getenv("HPP_REWRITE_TEST_CRASH"))
      if (StringRef(Crash) == "1")
        std::raise(SIGSEGV);
    // 2. Each rule's end of the translation unit, in the order of
    // Rules.def: the rules that need the whole unit edit and report, and
    // the last kernel sites are collected.
    for (auto &R : Rules)
      R->onEndOfTranslationUnit(AST);
    // 3. Outlining, once every rule's edits inside the bodies are known
    // (they move into the kernels); it closes the kernel sites. It runs
    // even after errors, so that every problem is reported at once.
    Outlining->run(Ctx->kernelSites(), AST, owner(&Rule::ownsOutlinedKernels));
    if (Diags->hasErrors())
      return;
    // 4. The `#line` directives, after every edit; then the rules' last
    // reports.
    Edits->syncLines(Ctx->lines(), owner(&Rule::ownsLineDirectives));
    for (auto &R : Rules)
      R->onLinesSynced();
    // 5. The edits applied, unless a warning made an error
    // (--warnings-as-errors).
    if (!Diags->hasErrors())
      Text = Edits->applyToMainFile();
    if (Text)
      Headers = Edits->applyToHeaders(owner(&Rule::ownsLineDirectives));
    if (!Headers)
      Text.reset();
    else {
      recordHeaderDeviceCode();
      recordWidths();
    }
  }

  /// Output.Narrowing, Output.UsesNativeWidth and Output.HeaderWidths:
  /// what the tool's second pass needs to make the warp one thing across
  /// the program's sources.
  void recordWidths() {
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    const WidthModel &Widths = Ctx->widthModel();
    for (const WidthDecision &D : Widths.decisions()) {
      Output.UsesNativeWidth |= D.Model == WarpModel::Native;
      recordKernels(D);
    }
    Output.HeaderWidths = Widths.headerWidths();
    Output.NarrowedByProgram = Widths.narrowsByProgram();
    if (const WidthFact *Fact = Widths.asWritten())
      Output.AsWritten = placeName(SM, Fact->Loc) + ": " + Fact->What;
    if (const WidthFact *Fact = Widths.narrowing()) {
      PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(Fact->Loc));
      Output.Narrowing =
          PL.isValid() ? absolutePath(SM, PL.getFilename()) + ":" +
                             std::to_string(PL.getLine()) + ":" +
                             std::to_string(PL.getColumn()) + ": " + Fact->What
                       : Fact->What;
    } else if (!Options.ExternalNarrowing.empty()) {
      Output.Narrowing = Options.ExternalNarrowing;
    }
  }

  /// Output.Kernels: the decision of \p D for each of its roots that lies in
  /// a rewritten file.
  void recordKernels(const WidthDecision &D) {
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    auto Text = [&](const WidthFact &F) {
      return F.Loc.isValid() ? placeName(SM, F.Loc) + ": " + F.What : F.What;
    };
    for (const WidthDecision::Root &R : D.Roots) {
      SourceLocation At = SM.getExpansionLoc(R.Function->getLocation());
      if (!isWrittenInRewrittenFile(SM, At))
        continue;
      KernelWidth K;
      const auto *Method = dyn_cast<CXXMethodDecl>(R.Function);
      K.Name = Method && Method->getParent()->isLambda()
                   ? std::string("(lambda)")
                   : R.Function->getQualifiedNameAsString();
      K.Place = placeName(SM, At);
      K.Model = D.Model == WarpModel::Native      ? "native"
                : D.Model == WarpModel::AsWritten ? "as-written"
                                                  : "logical32";
      K.ThirtyTwo = Text(D.ThirtyTwo);
      K.RealWidth = Text(R.RealWidth);
      K.Joined = D.Joined;
      K.ProgramNarrowed = D.ProgramNarrowed;
      Output.Kernels.push_back(std::move(K));
    }
  }

  /// Output.HeaderDeviceCode: the functions of project headers that are
  /// device code in this translation unit.
  void recordHeaderDeviceCode() {
    SourceManager &SM = getCompilerInstance().getSourceManager();
    for (const DeviceRoot &Root : Ctx->deviceCode().roots()) {
      if (Root.Lambda || !Root.Function)
        continue;
      const Decl *D = Root.Function;
      if (const FunctionTemplateDecl *T =
              Root.Function->getDescribedFunctionTemplate())
        D = T;
      SourceRange Range = D->getSourceRange();
      SourceLocation Begin = SM.getExpansionLoc(Range.getBegin());
      SourceLocation End = SM.getExpansionLoc(Range.getEnd());
      FileID File = SM.getFileID(Begin);
      if (!isWrittenInProjectHeader(SM, Begin) || SM.getFileID(End) != File)
        continue;
      OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
      if (!Entry)
        continue;
      std::string Name(SM.getFileManager().getCanonicalName(*Entry));
      Output.HeaderDeviceCode[Name].push_back(
          {SM.getFileOffset(Begin), SM.getFileOffset(End) + 1});
    }
    for (auto &[Name, Ranges] : Output.HeaderDeviceCode) {
      llvm::sort(Ranges);
      Ranges.erase(std::unique(Ranges.begin(), Ranges.end()), Ranges.end());
    }
  }

  /// The tag of the one rule for which \p Owns is true: the driver files
  /// what it adds to the output itself (the kernels, the `#line`
  /// directives) under a rule that says so, never naming one.
  llvm::StringRef owner(bool (Rule::*Owns)() const) const {
    llvm::StringRef Tag;
    for (const auto &R : Rules)
      if (((*R).*Owns)()) {
        assert(Tag.empty() && "two rules own one part of the output");
        Tag = R->name();
      }
    assert(!Tag.empty() && "no rule owns a part of the output");
    return Tag;
  }

  void EndSourceFileAction() override {
    if (!Diags || Diags->hasErrors() || !Text)
      return;
    SourceManager &SM = getCompilerInstance().getSourceManager();
    Output.Fixes = Edits->mainFileFixes(*Text);
    Output.Text = std::move(*Text);
    Text.reset();
    Output.Dependencies = readFiles(SM);
    // With the dialect header precompiled, the parse read only the
    // headers it needed again; the depfile names them all.
    std::vector<std::string> Precompiled =
        precompiledInputs(getCompilerInstance());
    if (!Precompiled.empty()) {
      for (const std::string &F : Precompiled)
        Output.Dependencies.push_back(absolutePath(SM, F));
      llvm::sort(Output.Dependencies);
      Output.Dependencies.erase(
          std::unique(Output.Dependencies.begin(), Output.Dependencies.end()),
          Output.Dependencies.end());
    }
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      Output.File = absolutePath(SM, Main->getName());
    Output.Edits = Edits->records();
    for (EditRecord &E : Output.Edits)
      E.File = absolutePath(SM, E.File);
    Output.Headers = std::move(*Headers);
    Output.KernelsOutlined = Outlining->outlined();
    Output.Ok = true;
  }

  /// \p Name as an absolute path without `.` or `..`; a relative one is
  /// taken from the compile command's directory (the file manager's, not
  /// the process's: files run in parallel share the process).
  static std::string absolutePath(const SourceManager &SM, StringRef Name) {
    SmallString<256> Path(Name);
    SM.getFileManager().makeAbsolutePath(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    return std::string(Path);
  }

  /// The files \p SM read, as absolute paths, sorted.
  static std::vector<std::string> readFiles(const SourceManager &SM) {
    std::vector<std::string> Files;
    for (auto It = SM.fileinfo_begin(), End = SM.fileinfo_end(); It != End;
         ++It)
      Files.push_back(absolutePath(SM, It->getFirst().getName()));
    llvm::sort(Files);
    Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
    return Files;
  }

private:
  RewriteOutput &Output;
  const RuleSelection &Selection;
  const RewriteOptions &Options;
  MatchFinder Finder;
  /// What the rewrite edits; registered for the source manager while the
  /// action lives (declared first, it is destroyed last).
  std::unique_ptr<RewriteScope> Scope;
  std::unique_ptr<RuleDiagnostics> Diags;
  std::unique_ptr<EditCollector> Edits;
  std::unique_ptr<RuleContext> Ctx;
  /// Outlines the kernel sites the rules collected (after the rules).
  std::unique_ptr<OutlinePhase> Outlining;
  std::vector<std::unique_ptr<Rule>> Rules;
  /// The main file rewritten (rewrite), for EndSourceFileAction.
  std::optional<std::string> Text;
  /// The project headers rewritten (rewrite), for EndSourceFileAction.
  std::optional<std::vector<RewrittenHeader>> Headers;
};

/// Creates a RewriteAction per source.
class RewriteActionFactory : public tooling::FrontendActionFactory {
public:
  RewriteActionFactory(RewriteOutput &Output, const RuleSelection &Selection,
                       const RewriteOptions &Options)
      : Output(Output), Selection(Selection), Options(Options) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RewriteAction>(Output, Selection, Options);
  }

private:
  RewriteOutput &Output;
  RuleSelection Selection;
  RewriteOptions Options;
};

} // namespace

namespace {
/// Prints diagnostics as clang does and counts the errors, those of the
/// compiler driver too. Each engine's own options (the invocation's, e.g.
/// -fdiagnostics-parseable-fixits) decide the format.
class CountingPrinter : public DiagnosticConsumer {
public:
  CountingPrinter(raw_ostream &OS, DiagnosticLog *Log) : OS(OS), Log(Log) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Lang = &LO;
    PPr = PP;
    if (Printer)
      Printer->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override {
    if (Printer)
      Printer->EndSourceFile();
    Lang = nullptr;
    PPr = nullptr;
  }
  void finish() override {
    if (Printer)
      Printer->finish();
  }
  /// The compile of \p File crashed (CrashRecovery.h): an error, printed
  /// and recorded as the diagnostics are. The crashed compiler's
  /// preprocessor is left behind, not used again.
  void crashed(StringRef File, int Signal, CrashOwner Owner) {
    if (Printer && Lang)
      Printer->EndSourceFile();
    Lang = nullptr;
    PPr = nullptr;
    const std::string Message =
        crashMessage(File, Signal, Owner, getNumErrors());
    OS << "hpp-rewrite: error: " << Message << "\n";
    OS.flush();
    ++NumErrors;
    if (!Log)
      return;
    DiagnosticRecord R;
    R.Severity = "error";
    R.Rule = crashRule(Owner).str();
    R.Message = Message; // No location: the file's (the report's entry).
    Log->Diagnostics.push_back(std::move(R));
  }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info); // Counts.
    printerFor(Info.getDiags()->getDiagnosticOptions())
        .HandleDiagnostic(Level, Info);
    if (Log)
      record(Level, Info);
  }

private:
  TextDiagnosticPrinter &printerFor(DiagnosticOptions &Opts) {
    if (!Printer || Current != &Opts) {
      if (Printer && Lang)
        Printer->EndSourceFile();
      Printer = std::make_unique<TextDiagnosticPrinter>(OS, &Opts);
      Current = &Opts;
      if (Lang)
        Printer->BeginSourceFile(*Lang, PPr);
    }
    return *Printer;
  }

  /// Appends the diagnostic to the log (a note to the one before it).
  void record(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
    static const char *const Names[] = {"ignored", "note",  "remark",
                                        "warning", "error", "fatal"};
    DiagnosticRecord R;
    R.Severity = Names[Level];
    SmallString<256> Text;
    Info.FormatDiagnostic(Text);
    StringRef Message = Text;
    size_t Tag = Message.rfind(" [");
    if (Message.ends_with("]") && Tag != StringRef::npos &&
        Message.substr(Tag + 2).starts_with("hpp-")) {
      R.Rule = Message.substr(Tag + 2).drop_back().split(',').first.str();
      Message = Message.take_front(Tag);
    } else if (Level != DiagnosticsEngine::Note) {
      StringRef Flag = DiagnosticIDs::getWarningOptionForDiag(Info.getID());
      if (Flag.empty())
        Flag = Level >= DiagnosticsEngine::Error ? "error" : "warning";
      R.Rule = ("clang-diagnostic-" + Flag).str();
    }
    R.Message = Message.str();
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      SourceManager &SM = Info.getSourceManager();
      locate(SM, SM.getExpansionLoc(Info.getLocation()), R.File, R.Offset,
             R.Line, R.Column);
      for (const FixItHint &Fix : Info.getFixItHints()) {
        CharSourceRange Range = Lexer::makeFileCharRange(
            Fix.RemoveRange, SM, Lang ? *Lang : LangOptions());
        if (Range.isInvalid())
          continue;
        DiagnosticRecord::FixIt F;
        locate(SM, Range.getBegin(), F.File, F.Offset, F.Line, F.Column);
        F.Length = SM.getFileOffset(Range.getEnd()) - F.Offset;
        F.Text = Fix.CodeToInsert;
        R.FixIts.push_back(std::move(F));
      }
    }
    if (Level == DiagnosticsEngine::Note && !Log->Diagnostics.empty())
      Log->Diagnostics.back().Notes.push_back(std::move(R));
    else
      Log->Diagnostics.push_back(std::move(R));
  }

  static void locate(SourceManager &SM, SourceLocation Loc, std::string &File,
                     unsigned &Offset, unsigned &Line, unsigned &Column) {
    auto [FID, Off] = SM.getDecomposedLoc(Loc);
    Offset = Off;
    Line = SM.getLineNumber(FID, Off);
    Column = SM.getColumnNumber(FID, Off);
    if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(FID)) {
      SmallString<256> Path(Entry->getName());
      SM.getFileManager().makeAbsolutePath(Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      File = std::string(Path);
    }
  }

  raw_ostream &OS;
  DiagnosticLog *Log;
  const LangOptions *Lang = nullptr;
  const Preprocessor *PPr = nullptr;
  const DiagnosticOptions *Current = nullptr;
  std::unique_ptr<TextDiagnosticPrinter> Printer;
};
} // namespace

bool runRewriteTool(tooling::ClangTool &Tool,
                    tooling::FrontendActionFactory &Factory) {
  return runRewriteTool(Tool, Factory, llvm::errs());
}

namespace {
/// Runs the actions of another factory as FrontendActionFactory does,
/// with the compiler's own messages ("1 error generated.") going to a
/// given stream, with the diagnostics, instead of stderr; and, as clang's
/// driver does, in a crash recovery context (CrashRecovery.h): a crash is
/// an error of its file, reported through \p Printer.
class StreamFactory : public tooling::FrontendActionFactory {
public:
  StreamFactory(tooling::FrontendActionFactory &Inner, raw_ostream &OS,
                CountingPrinter &Printer)
      : Inner(Inner), OS(OS), Printer(Printer) {}
  std::unique_ptr<FrontendAction> create() override { return Inner.create(); }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // For a crash's check run: the compile may leave the invocation in
    // any state.
    const CompilerInvocation Saved(*Invocation);
    usePrecompiledDialect(*Invocation, *Files, PCHContainerOps, OS);
    auto Compiler = std::make_unique<CompilerInstance>(PCHContainerOps);
    Compiler->setInvocation(std::move(Invocation));
    Compiler->setFileManager(Files);
    Compiler->setVerboseOutputStream(OS);
    // Deleted before the Compiler, as FrontendActionFactory does.
    std::unique_ptr<FrontendAction> Action(create());
    Compiler->createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
    if (!Compiler->hasDiagnostics())
      return false;
    Compiler->createSourceManager(*Files);
    bool Success = false;
    int Signal = 0;
    if (!runRecovered([&] { Success = Compiler->ExecuteAction(*Action); },
                      Signal, /*DumpStack=*/true)) {
      (void)Action.release(); // Their state after the crash is unknown.
      (void)Compiler.release();
      const FrontendInputFile &Input = Saved.getFrontendOpts().Inputs.front();
      Printer.crashed(Input.isFile() ? Input.getFile() : "<input>", Signal,
                      crashOwner(Saved, *Files, std::move(PCHContainerOps)));
      Files->clearStatCache();
      return false;
    }
    Action.reset();
    Compiler.reset();
    Files->clearStatCache();
    return Success;
  }

private:
  tooling::FrontendActionFactory &Inner;
  raw_ostream &OS;
  CountingPrinter &Printer;
};
} // namespace

bool runRewriteTool(tooling::ClangTool &Tool,
                    tooling::FrontendActionFactory &Factory,
                    llvm::raw_ostream &OS, DiagnosticLog *Log) {
  CountingPrinter Printer(OS, Log);
  StreamFactory Streamed(Factory, OS, Printer);
  Tool.setDiagnosticConsumer(&Printer);
  const int Status = Tool.run(&Streamed);
  Tool.setDiagnosticConsumer(nullptr);
  if (Log) {
    Log->Warnings += Printer.getNumWarnings();
    Log->Errors += Printer.getNumErrors();
  }
  return Status == 0 && Printer.getNumErrors() == 0;
}

std::optional<OutputOrigin> outputOrigin(llvm::StringRef Text) {
  llvm::StringRef Line = Text.take_until([](char C) { return C == '\n'; });
  Line.consume_back("\r");
  if (!Line.consume_front("#line 1 \""))
    return std::nullopt;
  OutputOrigin Origin;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (C == '\\' && I + 1 < Line.size()) {
      Origin.Input += Line[++I];
      continue;
    }
    if (C != '"') {
      Origin.Input += C;
      continue;
    }
    llvm::StringRef Rest = Line.drop_front(I + 1).trim(" \t");
    if (Origin.Input.empty() || !(Rest.empty() || Rest == OutputMark))
      return std::nullopt;
    Origin.Marked = Rest == OutputMark;
    return Origin;
  }
  return std::nullopt;
}

std::unique_ptr<tooling::FrontendActionFactory>
newRewriteActionFactory(RewriteOutput &Output, const RuleSelection &Selection,
                        const RewriteOptions &Options) {
  return std::make_unique<RewriteActionFactory>(Output, Selection, Options);
}

} // namespace rewrite
} // namespace hpp
