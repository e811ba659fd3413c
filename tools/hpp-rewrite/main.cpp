//===- main.cpp - hpp-rewrite command line --------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `hpp-rewrite [options] <source>... [-- <compiler flags>]`: lowers HPP
/// dialect sources to one portable HIP/CUDA source each. Nothing is written
/// unless every source rewrote without errors.
///
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/Driver.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

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
static cl::opt<bool> Quiet("quiet",
                           cl::desc("Do not print progress for several files"),
                           cl::cat(Category));

static const char Overview[] =
    "Lowers HPP dialect C++ (parallelFor, __device(hpp), ...) into one "
    "portable HIP/CUDA source\nthat builds with nvcc and hipcc. The output "
    "includes <hpp/runtime.h>: compile it with\n-I <hpp>/runtime -I "
    "<hpp>/include. Output goes to stdout unless -o or --in-place is "
    "given;\non any error nothing is written and the exit status is 1.\n";

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

/// Writes the Makefile rule "Target: Deps..." to \p Path, spaces and '#'
/// escaped as make and Ninja read them.
static bool writeDepFile(StringRef Path, StringRef Target,
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
  Text += "\n";
  if (Error E = writeToOutput(Path, [&](raw_ostream &OS) {
        OS << Text;
        return Error::success();
      })) {
    errs() << "hpp-rewrite: error: cannot write '" << Path
           << "': " << toString(std::move(E)) << "\n";
    return false;
  }
  return true;
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
                                            cl::OneOrMore, Overview);
  if (!Parser) {
    errs() << "hpp-rewrite: error: " << toString(Parser.takeError()) << "\n";
    return 1;
  }
  const std::vector<std::string> &Sources = Parser->getSourcePathList();
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

  if (!DepFile.empty() && OutputFile.empty()) {
    errs() << "hpp-rewrite: error: --depfile needs -o\n";
    return 1;
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
    auto Factory = hpp::rewrite::newRewriteActionFactory(Results[I]);
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
      if (!DepFile.empty() &&
          !writeDepFile(DepFile, OutputFile, Results[I].Dependencies))
        return 1;
    } else {
      outs() << Text;
    }
  }
  return 0;
}
