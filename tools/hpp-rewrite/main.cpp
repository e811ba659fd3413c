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
    "given;\non any error nothing is written and the exit status is 1. "
    "Each diagnostic names its rule\n([hpp-...]); --list-rules lists the "
    "rules and which of them may be turned off.\n";

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

/// An environment override, or the directory fixed at build time.
static std::string pathSetting(const char *Env, const char *BuiltIn) {
  if (std::optional<std::string> V = sys::Process::GetEnv(Env))
    return *V;
  return BuiltIn;
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
  for (const std::string &S : Sources)
    if (!sys::fs::exists(S)) {
      errs() << "hpp-rewrite: error: no such file: '" << S << "'\n";
      return 1;
    }

  hpp::rewrite::HeaderPaths Paths{
      pathSetting("HPP_REWRITE_RESOURCE_DIR", HPP_CLANG_RESOURCE_DIR),
      pathSetting("HPP_REWRITE_INCLUDE_DIR", HPP_SOURCE_INCLUDE_DIR),
      pathSetting("HPP_REWRITE_RUNTIME_DIR", HPP_SOURCE_RUNTIME_DIR)};

  std::vector<hpp::rewrite::RewriteOutput> Results(Sources.size());
  bool Failed = false;
  for (size_t I = 0; I < Sources.size(); ++I) {
    if (Sources.size() > 1 && !Quiet)
      errs() << "[" << I + 1 << "/" << Sources.size() << "] Rewriting "
             << Sources[I] << "\n";
    ClangTool Tool(Parser->getCompilations(), {Sources[I]});
    hpp::rewrite::addRewriteArguments(Tool, Paths);
    auto Factory = hpp::rewrite::newRewriteActionFactory(Results[I], Selection);
    Failed |= Tool.run(Factory.get()) != 0 || !Results[I].Ok;
  }
  if (Failed) {
    errs() << "hpp-rewrite: error: rewriting failed; no output written\n";
    return 1;
  }

  auto Write = [](StringRef Path, const std::string &Text) -> bool {
    // writeToOutput writes a temporary file and renames it into place.
    if (Error E = writeToOutput(Path, [&](raw_ostream &OS) {
          OS << Text;
          return Error::success();
        })) {
      errs() << "hpp-rewrite: error: cannot write '" << Path
             << "': " << toString(std::move(E)) << "\n";
      return false;
    }
    return true;
  };
  for (size_t I = 0; I < Sources.size(); ++I) {
    const std::string &Text = Results[I].Text;
    if (InPlace) {
      if (!Write(Sources[I], Text))
        return 1;
    } else if (!OutputFile.empty()) {
      if (!Write(OutputFile, Text))
        return 1;
    } else {
      outs() << Text;
    }
  }
  return 0;
}
