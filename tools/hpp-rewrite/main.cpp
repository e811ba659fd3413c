//===- main.cpp - hpp-rewrite command line --------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `hpp-rewrite [options] <source>... [-- <compiler flags>]`: lowers HPP
/// dialect sources to one portable HIP/CUDA source each. Nothing is written
/// unless every source rewrote without errors. `--list-rules` prints the
/// rules; `--rules`, `--disable` and `--warnings-as-errors` choose the
/// warning checks that run and the warnings that are errors
/// (hpp-rewrite/RuleRegistry.h). `--all` takes the sources from the
/// compilation database, `-j` rewrites them in parallel (Project.h);
/// `--report-json` and `--export-fixes` record the run (Report.h).
/// `--flags-file` and `--parse-flags-only` take the flags of a build's
/// compile (BuildFlags.h); a rewrite replaces no file but the tool's own
/// outputs (OutputFiles.h).
///
//===----------------------------------------------------------------------===//

#include "BuildFlags.h"
#include "OutputFiles.h"
#include "Project.h"
#include "ProjectHeaders.h"
#include "Report.h"
#include "hpp-rewrite/Driver.h"
#include "hpp-rewrite/RuleRegistry.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

using namespace llvm;
using namespace clang::tooling;

static cl::OptionCategory Category("hpp-rewrite options");
static cl::opt<std::string> OutputFile(
    "o", cl::desc("Write the rewritten source to <file> (one source only)"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> InPlace("in-place",
                             cl::desc("Overwrite each source with its rewrite"),
                             cl::cat(Category));
static cl::opt<std::string> DepFile(
    "depfile",
    cl::desc("With -o or --output-dir: also write a Makefile rule naming every "
             "file the rewrite read (the sources, their headers, the "
             "dialect's headers), for build systems (CMake DEPFILE, Ninja "
             "depfile, make -include); with --output-dir its target is the "
             "first source's output"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> OutputSuffix(
    "output-suffix",
    cl::desc("With --output-dir: append <suffix> to each source's output "
             "name (a.cpp becomes a.cpp.cu), so that a build compiles it in "
             "the language the suffix says; headers keep their names"),
    cl::value_desc("suffix"), cl::cat(Category));
static cl::opt<bool> NoBackup(
    "no-backup",
    cl::desc("With --in-place: do not keep each original as <file>.orig"),
    cl::cat(Category));
static cl::opt<unsigned> CommitPauseMs(
    "commit-pause-ms", cl::Hidden, cl::init(0),
    cl::desc("Testing: pause after replacing each file (the kill test of "
             "--in-place interrupts the tool there)"),
    cl::cat(Category));
static cl::opt<bool>
    Quiet("quiet",
          cl::desc("Do not print progress, nor the summary of several files"),
          cl::cat(Category));
static cl::opt<bool>
    All("all",
        cl::desc("Rewrite every translation unit of the compilation database "
                 "(-p, or compile_commands.json in the current directory or "
                 "a parent) that includes hpp/hpp.h; with --port, every CUDA "
                 "and C++ one"),
        cl::cat(Category));
static cl::opt<unsigned>
    Jobs("j", cl::Prefix, cl::init(0),
         cl::desc("Rewrite <n> sources at a time (default: the number of "
                  "cores)"),
         cl::value_desc("n"), cl::cat(Category));
static cl::opt<std::string> OutputDir(
    "output-dir",
    cl::desc("Write each rewrite to <dir>, at the source's path relative to "
             "the directory that holds every source (directories created)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string> Root(
    "root",
    cl::desc("The project root: the headers under it that a source includes "
             "(not as system headers) are rewritten with the sources, once "
             "for all of them (default: the directory that holds every "
             "source); --output-dir mirrors the tree below it"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> Summary(
    "summary",
    cl::desc("Print the summary (files rewritten, unchanged, failed; "
             "kernels; edits by rule; warnings; errors; time) also for one "
             "source; several sources always get it unless --quiet"),
    cl::cat(Category));
static cl::list<std::string> FlagsFiles(
    "flags-file",
    cl::desc("Read compiler flags from <file>, one argument a line (a line "
             "`SHELL:<text>` holds several), after those given after `--`; "
             "excludes -p and --all"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> ParseFlagsOnly(
    "parse-flags-only",
    cl::desc("Keep, of the compiler flags (after `--`, in --flags-file, from "
             "the compilation database), only those that change how the "
             "source parses: macros, include paths, forced includes, the "
             "language standard, options that set predefined macros; in "
             "gcc's, clang's and nvcc's spellings. The others (code "
             "generation, warnings, GPU targets) are dropped"),
    cl::cat(Category));
static cl::opt<bool> AbsoluteIncludes(
    "absolute-includes",
    cl::desc("Name the headers that a source includes from beside it "
             "(#include \"...\", __has_include) by their absolute paths in "
             "the output, so that the output finds them when it is compiled "
             "from another directory (a build tree)"),
    cl::cat(Category));
static cl::opt<std::string> ReportJson(
    "report-json",
    cl::desc("Write every edit and diagnostic to <file> as JSON (schema "
             "hpp-rewrite-report/1, docs/report.md), also when the run "
             "fails"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> ReportFormat(
    "report",
    cl::desc("--report=json <file>: the same as --report-json=<file> "
             "(json is the only format)"),
    cl::value_desc("format"), cl::cat(Category));
static cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the rewrite as replacements to <file>, YAML that "
             "clang-apply-replacements applies (written only on success)"),
    cl::value_desc("file"), cl::cat(Category));

static cl::opt<bool>
    ListRules("list-rules",
              cl::desc("Print every rule (tag, kind, summary) in the order "
                       "they run, and exit"),
              cl::cat(Category));
static cl::opt<std::string> RulesList(
    "rules",
    cl::desc("Run only the warning checks that these comma-separated names "
             "or globs select (`*` matches any text, a leading `-` "
             "removes); lowering rules and error checks always run"),
    cl::value_desc("list"), cl::cat(Category));
static cl::opt<std::string> DisableList(
    "disable",
    cl::desc("Do not run these warning checks (names or globs); a lowering "
             "rule or an error check cannot be turned off"),
    cl::value_desc("list"), cl::cat(Category));
static cl::opt<std::string> WarningsAsErrors(
    "warnings-as-errors", cl::ValueOptional,
    cl::desc("Report the warnings of these rules (names or globs; every "
             "rule without a value) as errors: exit status 1, nothing "
             "written"),
    cl::value_desc("list"), cl::cat(Category));

static cl::opt<std::string> Remarks(
    "remarks", cl::ValueOptional,
    cl::desc("Print the remarks (what a rule did or kept, and why) of these "
             "rules only (names or globs, `-` removes; default: every rule); "
             "an empty value prints none. Warnings, errors and the output "
             "do not change"),
    cl::value_desc("list"), cl::cat(Category));

static cl::opt<std::string> PCHDir(
    "pch-dir",
    cl::desc("Keep the dialect header precompiled in <dir>, once per set of "
             "compile options, and parse each source whose first line that "
             "is not a comment includes it with it; nothing else changes "
             "(default: $HPP_REWRITE_PCH_DIR; unset: parse in full)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> Port(
    "port",
    cl::desc("Port mode: the sources are CUDA as it is written (.cu, .cuh: "
             "parsed by clang's CUDA front end with the tool's own "
             "declarations of the CUDA headers, no CUDA SDK needed); the "
             "output includes <hpp/cuda_api.h> and builds with nvcc, hipcc "
             "and the runtime's CPU backend (docs/port.md)"),
    cl::cat(Category));
/// The port's structural rules: what a rename-only port (HIPIFY's) does,
/// with the warp code left as written.
static const char RenameOnlyRules[] =
    "hpp-cuda-include,hpp-cuda-launch,hpp-cuda-shared,hpp-source-position,"
    "hpp-source-encoding";
static cl::opt<bool> SimulateRenameOnly(
    "simulate-rename-only",
    cl::desc("With --port: write what a rename-only port writes (the CUDA "
             "headers, launches and dynamic shared arrays rewritten, the warp "
             "code as written, nothing refused), for the oracle's simulation "
             "of such a port on wave64 (docs/port.md); never for use"),
    cl::Hidden, cl::cat(Category));
static cl::opt<bool>
    NoPCH("no-pch",
          cl::desc("Parse every source in full (no --pch-dir, whatever "
                   "HPP_REWRITE_PCH_DIR says)"),
          cl::cat(Category));

static const char Overview[] =
    "Lowers HPP dialect C++ (parallelFor, __device(hpp), ...) into one "
    "portable HIP/CUDA source\nthat builds with nvcc and hipcc. The output "
    "includes <hpp/runtime.h>: compile it with\n-I <hpp>/runtime -I "
    "<hpp>/include. Output goes to stdout unless -o, --in-place or\n"
    "--output-dir is given. --all rewrites every source of the compilation "
    "database that\nincludes hpp/hpp.h, -j N files at a time; a summary "
    "follows several files.\nOn any error nothing is written and the exit "
    "status is 1. Files are written\nall or nothing: each to a temporary "
    "file first, then renamed into place;\nsymbolic links are written "
    "through; --in-place keeps each original as\n<file>.orig. Each "
    "diagnostic names its rule ([hpp-...]); --list-rules lists\nthe rules "
    "and which of them may be turned off.\n";

/// Prints the registered rules, marking the warning checks \p Selection
/// turns off.
static void listRules(const hpp::rewrite::RuleSelection &Selection) {
  using namespace hpp::rewrite;
  size_t NameWidth = 0, KindWidth = 0;
  auto Kind = [&](const RuleInfo &R) {
    return (kindName(R.Kind) + (Selection.isEnabled(R.Name) ? "" : " (off)"))
        .str();
  };
  for (const RuleInfo &R : registeredRules()) {
    NameWidth = std::max(NameWidth, R.Name.size());
    KindWidth = std::max(KindWidth, Kind(R).size());
  }
  outs() << "Rules, in the order they run. Lowering rules and error checks "
            "always run;\nwarning checks run unless --rules or --disable "
            "turns them off.\n";
  for (const RuleInfo &R : registeredRules())
    outs() << "  " << left_justify(R.Name, NameWidth) << "  "
           << left_justify(Kind(R), KindWidth) << "  " << R.Summary << "\n";
}

/// An environment override; else, for an installed tool, \p Installed
/// (the install tree: <prefix>/bin/hpp-rewrite and
/// <prefix>/include/hpp-rewrite/...) when it exists; else the directory
/// fixed at build time (the source tree).
static std::string pathSetting(const char *Env, StringRef Installed,
                               const char *BuiltIn) {
  if (std::optional<std::string> V = sys::Process::GetEnv(Env))
    return *V;
  if (!Installed.empty() && sys::fs::is_directory(Installed))
    return Installed.str();
  return BuiltIn;
}

/// <prefix>/include/hpp-rewrite/\p Leaf, <prefix> the directory above the
/// one that holds this executable.
static std::string installedDir(const char *Argv0, StringRef Leaf) {
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable(Argv0, &Anchor);
  if (Exe.empty())
    return "";
  SmallString<256> Dir(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Dir, "include", "hpp-rewrite", Leaf);
  return std::string(Dir);
}

/// \p Path resolved as a destination (OutputFiles.h), or an error printed.
static std::optional<std::string>
destination(StringRef Path, const std::vector<std::string> &Inputs) {
  Expected<std::string> Dest = hpp::tool::resolveDestination(Path, Inputs);
  if (!Dest) {
    errs() << "hpp-rewrite: error: " << toString(Dest.takeError()) << "\n";
    return std::nullopt;
  }
  return *Dest;
}

/// The destinations of \p Sources (absolute) under \p Dir, mirroring the
/// tree below \p Base (the project root, which holds them all); false after
/// an error.
static bool outputDirDestinations(StringRef Dir, StringRef Base,
                                  const std::vector<std::string> &Sources,
                                  std::vector<std::string> &Dests) {
  if (sys::fs::exists(Dir) && !sys::fs::is_directory(Dir)) {
    errs() << "hpp-rewrite: error: --output-dir '" << Dir
           << "' is not a directory\n";
    return false;
  }
  std::vector<std::string> Inputs;
  for (const std::string &S : Sources) {
    SmallString<256> Abs(S);
    sys::fs::make_absolute(Abs);
    sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    Inputs.push_back(std::string(Abs));
  }
  for (const std::string &In : Inputs) {
    SmallString<256> Dest(Dir);
    sys::path::append(Dest, StringRef(In).drop_front(Base.size()));
    Dest += OutputSuffix;
    std::optional<std::string> D = destination(Dest, Inputs);
    if (!D)
      return false;
    Dests.push_back(*D);
  }
  return true;
}

int main(int argc, const char **argv) {
  // Stack dumps on a crash, printed also for one the rewrite recovers from
  // (a file's compile runs in a crash recovery context: CrashRecovery.h).
  InitLLVM Init(argc, argv);
  setBugReportMsg("hpp-rewrite crashed, or clang inside it; the error after "
                  "the stack dump says which. Please report it with the "
                  "input: a crash of clang alone to "
                  "https://github.com/llvm/llvm-project/issues/, else to "
                  "hpp-rewrite.\n");
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "hpp-rewrite version " HPP_REWRITE_VERSION " (LLVM " HPP_LLVM_VERSION
          ")\n";
  });
  std::vector<const char *> Args(argv, argv + argc);
  std::vector<std::string> Joined;
  Joined.reserve(argc); // The pointers in Args must stay valid.
  hpp::tool::joinReportOption(Args, Joined);
  // Without `--` or -p, parse with no extra flags instead of searching for a
  // compilation database and warning that none was found.
  bool HasSeparator = false, HasDatabase = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    HasSeparator |= std::strcmp(Args[I], "--") == 0;
    HasDatabase |=
        std::strcmp(Args[I], "-p") == 0 || std::strncmp(Args[I], "-p=", 3) == 0;
  }
  // --flags-file: its flags join those after `--` before the options are
  // parsed (they make the compile command of each source).
  BumpPtrAllocator FlagsAlloc;
  StringSaver FlagsSaver(FlagsAlloc);
  bool HasFlagsFile = false;
  if (Error E = hpp::tool::addFlagsFiles(Args, FlagsSaver, HasFlagsFile)) {
    errs() << "hpp-rewrite: error: " << toString(std::move(E)) << "\n";
    return 1;
  }
  if (HasFlagsFile && HasDatabase) {
    errs() << "hpp-rewrite: error: --flags-file gives the flags of the "
              "compile; it excludes -p\n";
    return 1;
  }
  if (!HasSeparator && !HasDatabase && !HasFlagsFile)
    Args.push_back("--");
  int ArgCount = static_cast<int>(Args.size());

  auto Parser = CommonOptionsParser::create(ArgCount, Args.data(), Category,
                                            cl::ZeroOrMore, Overview);
  if (!Parser) {
    errs() << "hpp-rewrite: error: " << toString(Parser.takeError()) << "\n";
    return 1;
  }

  hpp::rewrite::RuleSelection Selection;
  auto Fail = [](Error E) {
    errs() << "hpp-rewrite: error: " << toString(std::move(E)) << "\n";
    return 1;
  };
  if (ReportFormat.getNumOccurrences())
    return Fail(createStringError(
        ReportFormat == "json"
            ? "--report=json needs the report's file: --report=json <file>"
            : "unknown report format '" + ReportFormat +
                  "': --report takes json (--report=json <file>)"));
  if (RulesList.getNumOccurrences())
    if (Error E = Selection.selectChecks(RulesList))
      return Fail(std::move(E));
  if (Error E = Selection.disableChecks(DisableList))
    return Fail(std::move(E));
  if (SimulateRenameOnly) {
    if (!Port)
      return Fail(createStringError("--simulate-rename-only needs --port"));
    if (Error E = Selection.restrictTo(RenameOnlyRules))
      return Fail(std::move(E));
  }
  if (Remarks.getNumOccurrences())
    if (Error E = Selection.setRemarks(Remarks))
      return Fail(std::move(E));
  if (WarningsAsErrors.getNumOccurrences())
    if (Error E = Selection.setWarningsAsErrors(
            WarningsAsErrors.empty() ? std::string("*")
                                     : WarningsAsErrors.getValue()))
      return Fail(std::move(E));
  if (ListRules) {
    listRules(Selection);
    return 0;
  }
  hpp::rewrite::HeaderPaths Paths{
      pathSetting("HPP_REWRITE_RESOURCE_DIR", "", HPP_CLANG_RESOURCE_DIR),
      pathSetting("HPP_REWRITE_INCLUDE_DIR", installedDir(argv[0], "dialect"),
                  HPP_SOURCE_INCLUDE_DIR),
      pathSetting("HPP_REWRITE_RUNTIME_DIR", installedDir(argv[0], "runtime"),
                  HPP_SOURCE_RUNTIME_DIR)};
  if (Port)
    Paths.CudaDecls =
        pathSetting("HPP_REWRITE_CUDA_DIR", installedDir(argv[0], "cuda-decls"),
                    HPP_SOURCE_CUDA_DIR);
  if (!NoPCH)
    hpp::rewrite::setPrecompiledHeaderDir(
        PCHDir.getNumOccurrences()
            ? PCHDir.getValue()
            : sys::Process::GetEnv("HPP_REWRITE_PCH_DIR").value_or(""));
  const auto Start = std::chrono::steady_clock::now();

  hpp::tool::RunOptions Run;
  Run.Jobs = Jobs;
  Run.Quiet = Quiet;
  Run.Terminal = sys::Process::StandardErrIsDisplayed();
  Run.ParseFlagsOnly = ParseFlagsOnly;
  Run.Rewrite.AbsoluteIncludes = AbsoluteIncludes;

  std::vector<std::string> Sources = Parser->getSourcePathList();
  std::unique_ptr<CompilationDatabase> AllDatabase, Mapped;
  if (All) {
    if (!Sources.empty())
      return Fail(createStringError("--all takes no sources"));
    if (HasSeparator || HasFlagsFile)
      return Fail(createStringError("--all takes the flags of each source "
                                    "from the compilation database, not "
                                    "after `--` or from --flags-file"));
    Expected<std::unique_ptr<CompilationDatabase>> DB =
        hpp::tool::projectDatabase();
    if (!DB)
      return Fail(DB.takeError());
    AllDatabase = std::move(*DB);
    if (Port) {
      Sources = hpp::tool::portSources(*AllDatabase);
      if (Sources.empty()) {
        errs() << "hpp-rewrite: no translation unit of the compilation "
                  "database is CUDA or C++\n";
        return 0;
      }
    } else {
      hpp::tool::ProjectSources Found =
          hpp::tool::dialectSources(*AllDatabase, Paths, Run);
      if (!Found.Unnamed.empty())
        errs() << "hpp-rewrite: "
               << (Found.Sources.empty() ? "error" : "warning") << ": "
               << Found.Unnamed.size()
               << " translation unit(s) of the compilation database include "
                  "hpp/runtime.h but name no source that exists (the first: '"
               << Found.Unnamed.front()
               << "'): outputs of an earlier hpp-rewrite or of a removed "
                  "source, or code written for the runtime; nothing here "
                  "rewrites or checks them. Build them again with this "
                  "hpp-rewrite (its outputs name their source), or name the "
                  "sources: hpp-rewrite -p <build> <source>...\n";
      if (Found.Sources.empty()) {
        if (!Found.Unnamed.empty())
          return 1;
        errs() << "hpp-rewrite: no translation unit of the compilation "
                  "database includes hpp/hpp.h\n";
        return 0;
      }
      Sources = std::move(Found.Sources);
      if (!Found.ThroughOutput.empty())
        Mapped = hpp::tool::commandsThroughOutputs(*AllDatabase, Found);
    }
  }
  const CompilationDatabase &Database = Mapped ? *Mapped
                                        : All  ? *AllDatabase
                                               : Parser->getCompilations();
  const bool Reports = !ReportJson.empty() || !ExportFixes.empty();
  if (Sources.empty())
    return Fail(createStringError("no source given (hpp-rewrite --help)"));
  if (!OutputFile.empty() &&
      (InPlace || !OutputDir.empty() || Sources.size() != 1 || All))
    return Fail(createStringError("-o takes exactly one source and excludes "
                                  "--in-place, --output-dir and --all"));
  if (InPlace && !OutputDir.empty())
    return Fail(createStringError("--output-dir excludes --in-place"));
  if ((Sources.size() > 1 || All) && !InPlace && OutputDir.empty() && !Reports)
    return Fail(createStringError(
        "several sources need --in-place or --output-dir (or only a report: "
        "--report-json, --export-fixes)"));
  for (const std::string &S : Sources) {
    if (!sys::fs::exists(S))
      return Fail(createStringError("no such file: '" + S + "'"));
    if (sys::fs::is_directory(S))
      return Fail(createStringError("'" + S + "' is a directory"));
  }
  // The project root: its headers are rewritten with the sources.
  std::string ProjectRoot;
  {
    std::vector<std::string> Abs;
    for (const std::string &S : Sources)
      Abs.push_back(hpp::tool::absolutePath(S));
    ProjectRoot = Root.empty() ? hpp::tool::commonDirectory(Abs)
                               : hpp::tool::absolutePath(Root);
    if (!Root.empty() && !sys::fs::is_directory(ProjectRoot))
      return Fail(
          createStringError("--root '" + Root + "' is not a directory"));
    for (const std::string &A : Abs)
      if (!hpp::tool::isUnder(A, ProjectRoot))
        return Fail(createStringError("'" + A +
                                      "' lies outside the project root '" +
                                      ProjectRoot + "' (--root)"));
  }
  Run.Rewrite.ProjectRoot = ProjectRoot;
  // The project headers are written beside the sources' outputs: a quoted
  // include of one is kept, whatever --absolute-includes says.
  Run.Rewrite.MirroredHeaders = !OutputDir.empty();
  if (!OutputSuffix.empty() && OutputDir.empty())
    return Fail(createStringError("--output-suffix needs --output-dir"));
  if (!DepFile.empty() && OutputFile.empty() && OutputDir.empty())
    return Fail(createStringError("--depfile needs -o or --output-dir"));
  // Every destination is checked before anything is parsed.
  std::vector<std::string> Destinations;
  if (InPlace)
    for (const std::string &S : Sources) {
      std::optional<std::string> D = destination(S, {});
      if (!D)
        return 1;
      Destinations.push_back(*D);
    }
  if (!OutputDir.empty() &&
      !outputDirDestinations(OutputDir, ProjectRoot, Sources, Destinations))
    return 1;
  std::string OutputDest, DepDest, ReportDest, FixesDest;
  for (auto [Option, Dest] :
       {std::pair(&OutputFile, &OutputDest), std::pair(&DepFile, &DepDest),
        std::pair(&ReportJson, &ReportDest),
        std::pair(&ExportFixes, &FixesDest)}) {
    if (Option->empty())
      continue;
    std::optional<std::string> D = destination(*Option, Sources);
    if (!D)
      return 1;
    *Dest = *D;
  }
  if (!OutputDest.empty())
    Destinations.push_back(OutputDest);
  // A rewrite replaces only the tool's own outputs; no destination is a
  // file the database compiles (--in-place, explicit, is left alone).
  hpp::tool::ProjectFiles Project(Database.getAllFiles());
  for (size_t I = 0; I < Destinations.size() && !InPlace; ++I)
    if (Error E =
            hpp::tool::checkReplaceable(Destinations[I], Sources[I], Project))
      return Fail(std::move(E));
  for (const std::string *D : {&DepDest, &ReportDest, &FixesDest})
    if (!D->empty() && Project.contains(*D))
      return Fail(
          createStringError("cannot write '" + *D +
                            "': it is a source of the compilation database"));

  std::vector<hpp::tool::FileRun> Results =
      hpp::tool::rewriteSources(Database, Sources, Paths, Selection, Run);
  // One component across sources for each shared function, then one warp
  // in the program: sources decided alone are made to agree.
  hpp::tool::joinAcrossSources(Database, Sources, Paths, Selection, Run,
                               Results);
  hpp::tool::narrowAcrossSources(Database, Sources, Paths, Selection, Run,
                                 Results);
  // Each project header once, merged across the sources (or a conflict).
  std::vector<hpp::tool::MergedHeader> Headers =
      hpp::tool::mergeHeaders(Results, errs());
  bool Failed =
      llvm::any_of(Results, [](const hpp::tool::FileRun &R) { return !R.Ok; });
  const bool ToStdout = !InPlace && OutputFile.empty() && OutputDir.empty();
  if (!Failed && !Headers.empty() && !InPlace && OutputDir.empty() &&
      !(ToStdout && Reports)) {
    errs() << "hpp-rewrite: error: the rewrite changes " << Headers.size()
           << " project header(s) (the first: '" << Headers.front().File
           << "'), which " << (ToStdout ? "standard output" : "-o")
           << " cannot hold: write them with --output-dir or --in-place "
              "(or give a --root that leaves them out)\n";
    Failed = true;
  }
  // One source cannot see the project's other users of a header: say so.
  if (!Failed && !All && Sources.size() == 1)
    for (const hpp::tool::MergedHeader &H : Headers)
      errs() << "hpp-rewrite: warning: the project header '" << H.File
             << "' is rewritten as this one source needs it; another source "
                "that includes it may need another rewrite of it (a kernel "
                "that decides its width differently): rewrite every source "
                "of the project in one run (list them, or --all), which "
                "checks that one rewrite is right for all\n";
  if (!Failed && ToStdout && Sources.size() == 1)
    outs() << Results[0].Output.Text;

  // All files, or none (OutputFiles.h).
  std::vector<hpp::tool::PendingOutput> Pending;
  for (size_t I = 0; I < Destinations.size() && !Failed; ++I)
    Pending.push_back(
        {Destinations[I], Results[I].Output.Text, InPlace && !NoBackup});
  std::set<std::string> ChangedHeaders;
  if (!Failed && (InPlace || !OutputDir.empty()))
    Failed = !hpp::tool::headerOutputs(
        Headers, Results, Sources, Paths, ProjectRoot,
        InPlace ? StringRef() : StringRef(OutputDir), InPlace && !NoBackup,
        Pending, ChangedHeaders);
  // A source's output is written again, even the same, when a header it
  // includes changed: a build that compiles what changed compiles it.
  if (!Failed && !ChangedHeaders.empty())
    for (size_t I = 0; I < Destinations.size() && I < Results.size(); ++I)
      for (const std::string &Dep : Results[I].Output.Dependencies)
        if (ChangedHeaders.count(hpp::tool::realPath(Dep))) {
          Pending[I].Force = true;
          break;
        }
  if (!Failed && !DepFile.empty() && !OutputDir.empty() &&
      !Destinations.empty()) {
    std::vector<std::string> Deps;
    for (const hpp::tool::FileRun &R : Results)
      Deps.insert(Deps.end(), R.Output.Dependencies.begin(),
                  R.Output.Dependencies.end());
    llvm::sort(Deps);
    Deps.erase(std::unique(Deps.begin(), Deps.end()), Deps.end());
    Pending.push_back(
        {DepDest, hpp::tool::depFileText(Destinations[0], Deps), false});
  }
  if (!Failed && !DepFile.empty() && !OutputFile.empty())
    Pending.push_back(
        {DepDest,
         hpp::tool::depFileText(OutputFile, Results[0].Output.Dependencies),
         false});
  if (!Failed && !ExportFixes.empty())
    Pending.push_back(
        {FixesDest, hpp::tool::exportedFixes(Results, Headers), false});
  std::vector<std::string> Created;
  Error WriteError = Error::success();
  if (!Failed) {
    WriteError = hpp::tool::makeDirectories(Pending, Created);
    if (!WriteError)
      WriteError = hpp::tool::writeAllOrNothing(Pending, CommitPauseMs);
    if (WriteError)
      for (auto It = Created.rbegin(); It != Created.rend(); ++It)
        sys::fs::remove(*It);
  }
  const bool Written = !Failed && !WriteError;

  if (Summary || (!Quiet && (Sources.size() > 1 || All)))
    hpp::tool::printSummary(
        errs(), Results,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count());
  int Status = 0;
  if (Failed) {
    errs() << "hpp-rewrite: error: rewriting failed; no output written\n";
    Status = 1;
  } else if (WriteError) {
    errs() << "hpp-rewrite: error: " << toString(std::move(WriteError))
           << "; no file was changed\n";
    Status = 1;
  }
  if (!ReportJson.empty()) {
    hpp::tool::PendingOutput Report{
        ReportDest,
        hpp::tool::jsonReport(Results, Destinations, Written,
                              HPP_REWRITE_VERSION, Headers),
        false};
    if (Error E = hpp::tool::writeAllOrNothing(Report))
      Status = Fail(std::move(E));
  }
  if (hpp::rewrite::crashWasRecovered())
    hpp::rewrite::exitAfterCrash(Status);
  return Status;
}
