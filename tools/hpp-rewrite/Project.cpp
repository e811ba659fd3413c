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

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <mutex>

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

static std::string absolute(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

static std::vector<Job> jobsFor(const CompilationDatabase &DB,
                                ArrayRef<std::string> Sources) {
  std::vector<Job> Jobs;
  for (const std::string &S : Sources) {
    Job J;
    J.Path = absolute(S);
    J.Commands = std::make_unique<FixedCommands>(DB.getCompileCommands(J.Path));
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
  std::vector<Job> Jobs = jobsFor(DB, Sources);
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
        auto Factory = rewrite::newRewriteActionFactory(R.Output, Selection);
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

namespace {
/// Notes whether `hpp/hpp.h` is included.
class IncludeScan : public PreprocessOnlyAction {
public:
  explicit IncludeScan(bool &Found) : Found(Found) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    struct Callbacks : PPCallbacks {
      bool &Found;
      explicit Callbacks(bool &Found) : Found(Found) {}
      void InclusionDirective(SourceLocation, const Token &, StringRef Name,
                              bool, CharSourceRange, OptionalFileEntryRef,
                              StringRef, StringRef, const Module *, bool,
                              SrcMgr::CharacteristicKind) override {
        Found |= Name == "hpp/hpp.h";
      }
    };
    CI.getPreprocessor().addPPCallbacks(std::make_unique<Callbacks>(Found));
    return true;
  }

private:
  bool &Found;
};

class IncludeScanFactory : public FrontendActionFactory {
public:
  explicit IncludeScanFactory(bool &Found) : Found(Found) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<IncludeScan>(Found);
  }

private:
  bool &Found;
};
} // namespace

std::vector<std::string> dialectSources(const CompilationDatabase &DB,
                                        const rewrite::HeaderPaths &Paths,
                                        unsigned Jobs) {
  std::vector<std::string> Files = DB.getAllFiles();
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  std::vector<Job> Scans = jobsFor(DB, Files);
  std::vector<char> Take(Files.size(), 0);
  SmallString<256> Dialect(Paths.DialectInclude);
  sys::path::append(Dialect, "hpp", "hpp.h");
  {
    DefaultThreadPool Pool(
        llvm::hardware_concurrency(threadsFor(Jobs, Files.size())));
    for (size_t I = 0; I < Files.size(); ++I)
      Pool.async([&, I] {
        std::unique_ptr<ClangTool> Tool = Scans[I].tool(Paths);
        Tool->mapVirtualFile(Dialect, ""); // Its contents do not matter.
        IgnoringDiagConsumer Quiet;
        Tool->setDiagnosticConsumer(&Quiet);
        bool Found = false;
        IncludeScanFactory Factory(Found);
        bool Clean = Tool->run(&Factory) == 0;
        Take[I] = Found || !Clean;
      });
    Pool.wait();
  }
  std::vector<std::string> Out;
  for (size_t I = 0; I < Files.size(); ++I)
    if (Take[I])
      Out.push_back(Files[I]);
  return Out;
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
