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
/// (hpp-rewrite/RuleRegistry.h).
///
//===----------------------------------------------------------------------===//

#include "OutputFiles.h"
#include "hpp-rewrite/Driver.h"
#include "hpp-rewrite/RuleRegistry.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
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
    cl::desc("With -o: also write a Makefile rule naming every file the "
             "rewrite read (the source, its headers, the dialect's headers), "
             "for build systems (CMake DEPFILE, Ninja depfile, make -include)"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> NoBackup(
    "no-backup",
    cl::desc("With --in-place: do not keep each original as <file>.orig"),
    cl::cat(Category));
static cl::opt<unsigned> CommitPauseMs(
    "commit-pause-ms", cl::Hidden, cl::init(0),
    cl::desc("Testing: pause after replacing each file (the kill test of "
             "--in-place interrupts the tool there)"),
    cl::cat(Category));
static cl::opt<bool> Quiet("quiet",
                           cl::desc("Do not print progress for several files"),
                           cl::cat(Category));

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

static const char Overview[] =
    "Lowers HPP dialect C++ (parallelFor, __device(hpp), ...) into one "
    "portable HIP/CUDA source\nthat builds with nvcc and hipcc. The output "
    "includes <hpp/runtime.h>: compile it with\n-I <hpp>/runtime -I "
    "<hpp>/include. Output goes to stdout unless -o or --in-place is "
    "given.\nOn any error nothing is written and the exit status is 1. "
    "Files are written all or\nnothing: each to a temporary file first, "
    "then renamed into place; symbolic links\nare written through; "
    "--in-place keeps each original as <file>.orig.\nEach diagnostic names "
    "its rule ([hpp-...]); --list-rules lists the rules and\nwhich of them "
    "may be turned off.\n";

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

/// The Makefile rule "Target: Deps...", spaces and '#' escaped as make and
/// Ninja read them.
static std::string depFileText(StringRef Target,
                               const std::vector<std::string> &Deps) {
  auto Escape = [](StringRef P) {
    std::string Out;
    for (char C : P) {
      if (C == ' ' || C == '#')
        Out += '\\';
      else if (C == '$')
        Out += '$';
      Out += C;
    }
    return Out;
  };
  std::string Text = Escape(Target) + ":";
  for (const std::string &D : Deps)
    Text += " \\\n  " + Escape(D);
  return Text + "\n";
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

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "hpp-rewrite version " HPP_REWRITE_VERSION " (LLVM " HPP_LLVM_VERSION
          ")\n";
  });
  // Without `--` or -p, parse with no extra flags instead of searching for a
  // compilation database and warning that none was found.
  std::vector<const char *> Args(argv, argv + argc);
  bool HasSeparator = false, HasDatabase = false;
  for (int I = 1; I < argc; ++I) {
    HasSeparator |= std::strcmp(argv[I], "--") == 0;
    HasDatabase |=
        std::strcmp(argv[I], "-p") == 0 || std::strncmp(argv[I], "-p=", 3) == 0;
  }
  if (!HasSeparator && !HasDatabase)
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
  if (RulesList.getNumOccurrences())
    if (Error E = Selection.selectChecks(RulesList))
      return Fail(std::move(E));
  if (Error E = Selection.disableChecks(DisableList))
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

  const std::vector<std::string> &Sources = Parser->getSourcePathList();
  if (Sources.empty()) {
    errs() << "hpp-rewrite: error: no source given (hpp-rewrite --help)\n";
    return 1;
  }
  if (!OutputFile.empty() && (InPlace || Sources.size() != 1)) {
    errs() << "hpp-rewrite: error: -o takes exactly one source and excludes "
              "--in-place\n";
    return 1;
  }
  if (Sources.size() > 1 && !InPlace) {
    errs() << "hpp-rewrite: error: several sources need --in-place\n";
    return 1;
  }
  for (const std::string &S : Sources) {
    if (!sys::fs::exists(S)) {
      errs() << "hpp-rewrite: error: no such file: '" << S << "'\n";
      return 1;
    }
    if (sys::fs::is_directory(S)) {
      errs() << "hpp-rewrite: error: '" << S << "' is a directory\n";
      return 1;
    }
  }
  // Every destination is checked before anything is parsed.
  std::vector<std::string> Destinations;
  if (InPlace)
    for (const std::string &S : Sources) {
      std::optional<std::string> D = destination(S, {});
      if (!D)
        return 1;
      Destinations.push_back(*D);
    }
  std::string OutputDest, DepDest;
  if (!OutputFile.empty()) {
    std::optional<std::string> D = destination(OutputFile, Sources);
    if (!D)
      return 1;
    OutputDest = *D;
  }
  if (!DepFile.empty()) {
    std::optional<std::string> D = destination(DepFile, Sources);
    if (!D)
      return 1;
    DepDest = *D;
  }
  hpp::rewrite::HeaderPaths Paths{
      pathSetting("HPP_REWRITE_RESOURCE_DIR", "", HPP_CLANG_RESOURCE_DIR),
      pathSetting("HPP_REWRITE_INCLUDE_DIR", installedDir(argv[0], "dialect"),
                  HPP_SOURCE_INCLUDE_DIR),
      pathSetting("HPP_REWRITE_RUNTIME_DIR", installedDir(argv[0], "runtime"),
                  HPP_SOURCE_RUNTIME_DIR)};

  std::vector<hpp::rewrite::RewriteOutput> Results(Sources.size());
  bool Failed = false;
  for (size_t I = 0; I < Sources.size(); ++I) {
    if (Sources.size() > 1 && !Quiet)
      errs() << "[" << I + 1 << "/" << Sources.size() << "] Rewriting "
             << Sources[I] << "\n";
    ClangTool Tool(Parser->getCompilations(), {Sources[I]});
    hpp::rewrite::addRewriteArguments(Tool, Paths);
    auto Factory = hpp::rewrite::newRewriteActionFactory(Results[I], Selection);
    Failed |= !hpp::rewrite::runRewriteTool(Tool, *Factory) || !Results[I].Ok;
  }
  if (Failed) {
    errs() << "hpp-rewrite: error: rewriting failed; no output written\n";
    return 1;
  }

  if (!InPlace && OutputFile.empty()) {
    for (const hpp::rewrite::RewriteOutput &R : Results)
      outs() << R.Text;
    return 0;
  }
  // All files, or none (OutputFiles.h).
  std::vector<hpp::tool::PendingOutput> Pending;
  if (InPlace) {
    for (size_t I = 0; I < Sources.size(); ++I)
      Pending.push_back({Destinations[I], Results[I].Text, !NoBackup});
  } else {
    Pending.push_back({OutputDest, Results[0].Text, false});
    if (!DepFile.empty())
      Pending.push_back(
          {DepDest, depFileText(OutputFile, Results[0].Dependencies), false});
  }
  if (Error E = hpp::tool::writeAllOrNothing(Pending, CommitPauseMs)) {
    errs() << "hpp-rewrite: error: " << toString(std::move(E))
           << "; no file was changed\n";
    return 1;
  }
  return 0;
}
