//===- Project.cpp - Rewriting many sources in parallel -------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// See Project.h. Each source gets its own ClangTool, on a physical file
/// system of its own (the working directory of a compile command is set on
/// it, never on the process), and compile commands fetched from the
/// database beforehand, on the main thread: the threads share nothing but
/// the read-only rule selection.
///
//===----------------------------------------------------------------------===//

#include "Project.h"
#include "BuildFlags.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <mutex>
#include <optional>

using namespace llvm;
using namespace clang;
using namespace clang::tooling;

namespace hpp {
namespace tool {

namespace {
/// The compile commands of one source, fetched beforehand.
class FixedCommands : public CompilationDatabase {
public:
  explicit FixedCommands(std::vector<CompileCommand> Commands)
      : Commands(std::move(Commands)) {}
  std::vector<CompileCommand> getCompileCommands(StringRef) const override {
    return Commands;
  }

private:
  std::vector<CompileCommand> Commands;
};

/// One job: a source, its commands, and a ClangTool to run them.
struct Job {
  std::string Path; ///< absolute
  std::unique_ptr<FixedCommands> Commands;

  std::unique_ptr<ClangTool> tool(const rewrite::HeaderPaths &Paths) const {
    auto Tool =
        std::make_unique<ClangTool>(*Commands, ArrayRef<std::string>(Path),
                                    std::make_shared<PCHContainerOperations>(),
                                    vfs::createPhysicalFileSystem());
    Tool->setPrintErrorMessage(false);
    rewrite::addRewriteArguments(*Tool, Paths);
    return Tool;
  }
};
} // namespace

std::string absolutePath(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// The jobs of \p Sources; \p ParseFlagsOnly: --parse-flags-only.
static std::vector<Job> jobsFor(const CompilationDatabase &DB,
                                ArrayRef<std::string> Sources,
                                bool ParseFlagsOnly) {
  std::vector<Job> Jobs;
  for (const std::string &S : Sources) {
    Job J;
    J.Path = absolutePath(S);
    std::vector<CompileCommand> Commands = DB.getCompileCommands(J.Path);
    if (ParseFlagsOnly)
      for (CompileCommand &C : Commands)
        C.CommandLine = parseFlagsOnly(C.CommandLine);
    J.Commands = std::make_unique<FixedCommands>(std::move(Commands));
    Jobs.push_back(std::move(J));
  }
  return Jobs;
}

static unsigned threadsFor(unsigned Jobs, size_t Work) {
  unsigned N = Jobs ? Jobs : hardware_concurrency().compute_thread_count();
  return std::max(1u, std::min<unsigned>(N, Work));
}

namespace {
/// Prints each file's diagnostics when it and every file before it are
/// done, and the progress line.
class Printer {
public:
  Printer(std::vector<FileRun> &Runs, const RunOptions &Options)
      : Runs(Runs), Texts(Runs.size()), Done(Runs.size()), Options(Options) {}

  void finished(size_t I, std::string Text) {
    std::lock_guard<std::mutex> Lock(M);
    Texts[I] = std::move(Text);
    Done[I] = true;
    ++Finished;
    const size_t N = Runs.size();
    for (; Next < N && Done[Next]; ++Next) {
      if (Options.Terminal)
        errs() << "\r\033[K";
      if (N > 1 && !Options.Quiet && !Options.Terminal)
        errs() << "[" << Next + 1 << "/" << N << "] Rewriting "
               << Runs[Next].Source << "\n";
      errs() << Texts[Next];
      Texts[Next].clear();
    }
    if (Options.Terminal && !Options.Quiet && N > 1)
      errs() << (Finished == N ? "\r\033[K" : "")
             << (Finished == N ? ""
                               : "[" + std::to_string(Finished) + "/" +
                                     std::to_string(N) + "] " + Runs[I].Source);
    errs().flush();
  }

private:
  std::vector<FileRun> &Runs;
  std::vector<std::string> Texts;
  std::vector<bool> Done;
  const RunOptions &Options;
  std::mutex M;
  size_t Next = 0, Finished = 0;
};
} // namespace

std::vector<FileRun> rewriteSources(const CompilationDatabase &DB,
                                    ArrayRef<std::string> Sources,
                                    const rewrite::HeaderPaths &Paths,
                                    const rewrite::RuleSelection &Selection,
                                    const RunOptions &Options) {
  std::vector<FileRun> Runs(Sources.size());
  std::vector<Job> Jobs = jobsFor(DB, Sources, Options.ParseFlagsOnly);
  for (size_t I = 0; I < Sources.size(); ++I) {
    Runs[I].Source = Sources[I];
    Runs[I].Path = Jobs[I].Path;
  }
  Printer Print(Runs, Options);
  DefaultThreadPool Pool(
      llvm::hardware_concurrency(threadsFor(Options.Jobs, Sources.size())));
  for (size_t I = 0; I < Sources.size(); ++I)
    Pool.async([&, I] {
      FileRun &R = Runs[I];
      std::string Text;
      raw_string_ostream OS(Text);
      OS.enable_colors(errs().has_colors());
      if (Jobs[I].Commands->getCompileCommands("").empty()) {
        OS << "hpp-rewrite: error: no compile command for '" << R.Source
           << "'\n";
        ++R.Log.Errors;
      } else {
        std::unique_ptr<ClangTool> Tool = Jobs[I].tool(Paths);
        auto Factory = rewrite::newRewriteActionFactory(R.Output, Selection,
                                                        Options.Rewrite);
        R.Ok =
            rewrite::runRewriteTool(*Tool, *Factory, OS, &R.Log) && R.Output.Ok;
        if (!R.Ok && R.Log.Errors == 0)
          ++R.Log.Errors; // The action failed without a diagnostic.
      }
      OS.flush();
      Print.finished(I, std::move(Text));
    });
  Pool.wait();
  return Runs;
}

void joinAcrossSources(const CompilationDatabase &DB,
                       ArrayRef<std::string> Sources,
                       const rewrite::HeaderPaths &Paths,
                       const rewrite::RuleSelection &Selection,
                       RunOptions &Options, std::vector<FileRun> &Runs) {
  // Facts only grow (each place gains at most three), so this ends.
  for (size_t Round = 0;; ++Round) {
    std::map<std::string, rewrite::SharedWidthFacts> &All =
        Options.Rewrite.ExternalWidths;
    for (const FileRun &R : Runs)
      if (R.Ok)
        for (const auto &[Place, Facts] : R.Output.HeaderWidths)
          All[Place].merge(Facts);
    std::vector<std::string> Again;
    std::vector<size_t> Where;
    for (size_t I = 0; I < Runs.size(); ++I) {
      if (!Runs[I].Ok)
        continue;
      // Again only where a component's model changes with the other
      // sources' facts of its places (its notes aside, nothing else of
      // the rewrite does).
      std::map<unsigned, rewrite::SharedWidthFacts> Mine, Merged;
      for (const auto &[Place, Facts] : Runs[I].Output.HeaderWidths) {
        Mine[Facts.Component] = Facts;
        Merged[Facts.Component].merge(Facts);
        Merged[Facts.Component].merge(All[Place]);
      }
      bool Changes = llvm::any_of(Mine, [&](const auto &C) {
        return C.second.model() != Merged[C.first].model();
      });
      if (Changes) {
        Again.push_back(Sources[I]);
        Where.push_back(I);
      }
    }
    if (Again.empty() || Round > 3 * All.size())
      return;
    if (!Options.Quiet)
      errs() << "hpp-rewrite: rewriting " << Again.size()
             << " source(s) again: they share warp code of project headers "
                "with other sources, and a function is compiled once, so its "
                "callers in every source get one warp width (their "
                "diagnostics below replace those above)\n";
    std::vector<FileRun> Second =
        rewriteSources(DB, Again, Paths, Selection, Options);
    for (size_t K = 0; K < Where.size(); ++K)
      Runs[Where[K]] = std::move(Second[K]);
  }
}

void narrowAcrossSources(const CompilationDatabase &DB,
                         ArrayRef<std::string> Sources,
                         const rewrite::HeaderPaths &Paths,
                         const rewrite::RuleSelection &Selection,
                         RunOptions Options, std::vector<FileRun> &Runs) {
  const FileRun *First = nullptr;
  for (const FileRun &R : Runs)
    if (R.Ok && !R.Output.Narrowing.empty()) {
      First = &R;
      break;
    }
  if (!First)
    return;
  // A kernel of another source that runs as written keeps the device's
  // warp width: the kernels narrowed by the program's rule are told.
  const FileRun *AsWritten = nullptr;
  for (const FileRun &R : Runs)
    if (R.Ok && !R.Output.AsWritten.empty() && !AsWritten)
      AsWritten = &R;
  std::vector<std::string> Again;
  std::vector<size_t> Where;
  for (size_t I = 0; I < Runs.size(); ++I)
    if (Runs[I].Ok &&
        (Runs[I].Output.UsesNativeWidth ||
         (AsWritten && Runs[I].Output.NarrowedByProgram &&
          Runs[I].Output.AsWritten.empty()))) {
      Again.push_back(Sources[I]);
      Where.push_back(I);
    }
  if (Again.empty())
    return;
  if (!Options.Quiet)
    errs() << "hpp-rewrite: rewriting " << Again.size()
           << " source(s) again with 32-lane warps, as one file's kernels "
              "would be: a kernel of '"
           << First->Source << "' keeps them (" << First->Output.Narrowing
           << "), and the warp is one thing in a program (their diagnostics "
              "below replace those above)\n";
  Options.Rewrite.ExternalNarrowing = First->Output.Narrowing;
  if (AsWritten)
    Options.Rewrite.ExternalAsWritten = AsWritten->Output.AsWritten;
  std::vector<FileRun> Second =
      rewriteSources(DB, Again, Paths, Selection, Options);
  for (size_t K = 0; K < Where.size(); ++K)
    Runs[Where[K]] = std::move(Second[K]);
}

namespace {
/// What a scan saw included.
struct Included {
  bool Dialect = false; ///< hpp/hpp.h
  bool Runtime = false; ///< hpp/runtime.h
};

/// Notes whether `hpp/hpp.h` and `hpp/runtime.h` are included.
class IncludeScan : public PreprocessOnlyAction {
public:
  explicit IncludeScan(Included &Found) : Found(Found) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    struct Callbacks : PPCallbacks {
      Included &Found;
      explicit Callbacks(Included &Found) : Found(Found) {}
      void InclusionDirective(SourceLocation, const Token &, StringRef Name,
                              bool, CharSourceRange, OptionalFileEntryRef,
                              StringRef, StringRef, const Module *, bool,
                              SrcMgr::CharacteristicKind) override {
        Found.Dialect |= Name == "hpp/hpp.h";
        Found.Runtime |= Name == "hpp/runtime.h";
      }
    };
    CI.getPreprocessor().addPPCallbacks(std::make_unique<Callbacks>(Found));
    return true;
  }

private:
  Included &Found;
};

class IncludeScanFactory : public FrontendActionFactory {
public:
  explicit IncludeScanFactory(Included &Found) : Found(Found) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<IncludeScan>(Found);
  }

private:
  Included &Found;
};

/// The source an output of hpp-rewrite at \p Path names on its first
/// line, when it is one (marked, naming another file that exists).
std::optional<std::string> outputSource(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!B)
    return std::nullopt;
  std::optional<rewrite::OutputOrigin> O =
      rewrite::outputOrigin((*B)->getBuffer());
  if (!O || !O->Marked || !sys::path::is_absolute(O->Input))
    return std::nullopt;
  bool Same = false;
  if (!sys::fs::is_regular_file(O->Input) ||
      (!sys::fs::equivalent(O->Input, Path, Same) && Same))
    return std::nullopt;
  return absolutePath(O->Input);
}

/// The commands of a source found through an output (Project.h).
class ThroughOutputs : public CompilationDatabase {
public:
  ThroughOutputs(const CompilationDatabase &Base, const ProjectSources &Found)
      : Base(Base) {
    for (const auto &[Source, Output] : Found.ThroughOutput) {
      std::vector<CompileCommand> &Cs = Mapped[Source];
      for (CompileCommand C : Base.getCompileCommands(Output)) {
        SmallString<256> Named(C.Filename);
        sys::fs::make_absolute(C.Directory, Named);
        sys::path::remove_dots(Named, /*remove_dot_dot=*/true);
        for (std::string &A : C.CommandLine) {
          SmallString<256> Arg(A);
          sys::fs::make_absolute(C.Directory, Arg);
          sys::path::remove_dots(Arg, /*remove_dot_dot=*/true);
          if (A == C.Filename || Arg == Named)
            A = Source;
        }
        C.Filename = Source;
        C.CommandLine = parseFlagsOnly(C.CommandLine);
        Cs.push_back(std::move(C));
      }
    }
  }
  std::vector<CompileCommand>
  getCompileCommands(StringRef File) const override {
    auto It = Mapped.find(absolutePath(File));
    return It != Mapped.end() ? It->second : Base.getCompileCommands(File);
  }
  std::vector<std::string> getAllFiles() const override {
    return Base.getAllFiles();
  }

private:
  const CompilationDatabase &Base;
  std::map<std::string, std::vector<CompileCommand>> Mapped;
};
} // namespace

std::vector<std::string> portSources(const CompilationDatabase &DB) {
  std::vector<std::string> Out;
  for (const CompileCommand &C : DB.getAllCompileCommands()) {
    StringRef Ext = sys::path::extension(C.Filename);
    bool Port = llvm::is_contained(
        {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".C", ".c++"}, Ext);
    for (size_t I = 0; I + 1 < C.CommandLine.size(); ++I)
      if (C.CommandLine[I] == "-x")
        Port = llvm::is_contained({"cu", "cuda", "c++"},
                                  StringRef(C.CommandLine[I + 1]));
    if (Port) {
      SmallString<256> Path(C.Filename);
      if (!sys::path::is_absolute(Path)) {
        Path = C.Directory;
        sys::path::append(Path, C.Filename);
      }
      Out.push_back(absolutePath(Path));
    }
  }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

ProjectSources dialectSources(const CompilationDatabase &DB,
                              const rewrite::HeaderPaths &Paths,
                              const RunOptions &Options) {
  std::vector<std::string> All = DB.getAllFiles();
  llvm::sort(All);
  All.erase(std::unique(All.begin(), All.end()), All.end());
  // Outputs of hpp-rewrite are not scanned: they name their source.
  std::vector<std::string> Files;
  std::map<std::string, std::string> Named; // Source -> its output.
  for (const std::string &F : All)
    if (std::optional<std::string> Source = outputSource(F))
      Named.emplace(*Source, F); // The first output, in order.
    else
      Files.push_back(F);
  std::vector<Job> Scans = jobsFor(DB, Files, Options.ParseFlagsOnly);
  std::vector<Included> Seen(Files.size());
  std::vector<char> Clean(Files.size(), 0);
  SmallString<256> Dialect(Paths.DialectInclude);
  sys::path::append(Dialect, "hpp", "hpp.h");
  {
    DefaultThreadPool Pool(
        llvm::hardware_concurrency(threadsFor(Options.Jobs, Files.size())));
    for (size_t I = 0; I < Files.size(); ++I)
      Pool.async([&, I] {
        std::unique_ptr<ClangTool> Tool = Scans[I].tool(Paths);
        Tool->mapVirtualFile(Dialect, ""); // Its contents do not matter.
        IgnoringDiagConsumer Quiet;
        Tool->setDiagnosticConsumer(&Quiet);
        IncludeScanFactory Factory(Seen[I]);
        Clean[I] = Tool->run(&Factory) == 0;
      });
    Pool.wait();
  }
  ProjectSources Out;
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Seen[I].Dialect || !Clean[I])
      Out.Sources.push_back(absolutePath(Files[I]));
    else if (Seen[I].Runtime)
      Out.Unnamed.push_back(Files[I]);
  }
  for (const auto &[Source, Output] : Named)
    if (!llvm::is_contained(Out.Sources, Source)) {
      Out.Sources.push_back(Source);
      Out.ThroughOutput.emplace(Source, Output);
    }
  llvm::sort(Out.Sources);
  Out.Sources.erase(std::unique(Out.Sources.begin(), Out.Sources.end()),
                    Out.Sources.end());
  return Out;
}

std::unique_ptr<CompilationDatabase>
commandsThroughOutputs(const CompilationDatabase &DB,
                       const ProjectSources &Found) {
  return std::make_unique<ThroughOutputs>(DB, Found);
}

Expected<std::unique_ptr<CompilationDatabase>> projectDatabase() {
  StringMap<cl::Option *> &Options = cl::getRegisteredOptions();
  auto *BuildPath = static_cast<cl::opt<std::string> *>(Options.lookup("p"));
  std::string Dir =
      BuildPath && !BuildPath->empty() ? BuildPath->getValue() : ".";
  std::string Error;
  std::unique_ptr<CompilationDatabase> DB =
      CompilationDatabase::autoDetectFromDirectory(Dir, Error);
  if (!DB)
    return createStringError("--all needs a compilation database: " + Error);
  auto Adjusted =
      std::make_unique<ArgumentsAdjustingCompilations>(std::move(DB));
  for (auto [Name, Where] :
       {std::pair("extra-arg-before", ArgumentInsertPosition::BEGIN),
        std::pair("extra-arg", ArgumentInsertPosition::END)})
    if (auto *Extra =
            static_cast<cl::list<std::string> *>(Options.lookup(Name)))
      Adjusted->appendArgumentsAdjuster(getInsertArgumentAdjuster(
          std::vector<std::string>(Extra->begin(), Extra->end()), Where));
  return std::unique_ptr<CompilationDatabase>(std::move(Adjusted));
}

std::string commonDirectory(ArrayRef<std::string> Files) {
  std::vector<StringRef> Common;
  for (size_t I = 0; I < Files.size(); ++I) {
    StringRef Dir = sys::path::parent_path(Files[I]);
    std::vector<StringRef> Parts(sys::path::begin(Dir), sys::path::end(Dir));
    if (I == 0) {
      Common = std::move(Parts);
      continue;
    }
    size_t K = 0;
    while (K < Common.size() && K < Parts.size() && Common[K] == Parts[K])
      ++K;
    Common.resize(K);
  }
  SmallString<256> Out;
  for (StringRef Part : Common)
    sys::path::append(Out, Part);
  return std::string(Out);
}

void printSummary(raw_ostream &OS, ArrayRef<FileRun> Runs, double Seconds) {
  unsigned Rewritten = 0, Unchanged = 0, Failed = 0, Kernels = 0, Warnings = 0,
           Errors = 0, Edits = 0;
  std::map<std::string, unsigned> ByRule;
  for (const FileRun &R : Runs) {
    Warnings += R.Log.Warnings;
    Errors += R.Log.Errors;
    if (!R.Ok) {
      ++Failed;
      continue;
    }
    ++(R.changed() ? Rewritten : Unchanged);
    Kernels += R.Output.KernelsOutlined;
    for (const rewrite::EditRecord &E : R.Output.Edits)
      ++ByRule[E.Rule];
    Edits += R.Output.Edits.size();
  }
  auto N = [](size_t Count, StringRef Noun) {
    return std::to_string(Count) + " " + Noun.str() + (Count == 1 ? "" : "s");
  };
  OS << "hpp-rewrite: " << N(Runs.size(), "file") << ": " << Rewritten
     << " rewritten, " << Unchanged << " unchanged, " << Failed << " failed; "
     << N(Kernels, "kernel") << " outlined; " << N(Edits, "edit") << "; "
     << N(Warnings, "warning") << ", " << N(Errors, "error") << "; "
     << format("%.2f s\n", Seconds);
  for (const auto &[Rule, Count] : ByRule)
    OS << "  " << left_justify(Rule, 32) << " " << N(Count, "edit") << "\n";
}

} // namespace tool
} // namespace hpp
