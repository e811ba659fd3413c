//===- Project.h - Rewriting many sources in parallel -----------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The multi-file run of hpp-rewrite: which translation units `--all`
/// takes from a compilation database, rewriting them on a thread pool
/// (`-j N`), each file's diagnostics printed together and in the order the
/// sources were given whatever finishes first, a progress line on a
/// terminal, and the summary at the end.
///
/// Nothing here writes a file: the caller collects every result and writes
/// all of them, or none (OutputFiles.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_TOOL_PROJECT_H
#define HPP_REWRITE_TOOL_PROJECT_H

#include "hpp-rewrite/Driver.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hpp {
namespace tool {

/// The outcome of one source.
struct FileRun {
  std::string Source; ///< as given, or as the compilation database names it
  std::string Path;   ///< Source as an absolute path
  rewrite::RewriteOutput Output;
  rewrite::DiagnosticLog Log;
  bool Ok = false; ///< rewritten without errors
  /// Rewritten and different from the source.
  bool changed() const { return Ok && !Output.Fixes.empty(); }
};

/// How the run goes and reports its progress.
struct RunOptions {
  unsigned Jobs = 1;     ///< sources rewritten at a time
  bool Quiet = false;    ///< no progress
  bool Terminal = false; ///< stderr is a terminal: one updating line
  /// `--parse-flags-only`: each compile command keeps only the flags that
  /// change the parse (BuildFlags.h).
  bool ParseFlagsOnly = false;
  /// The output's options (`--absolute-includes`).
  rewrite::RewriteOptions Rewrite;
};

/// Rewrites every one of \p Sources with the compile commands of \p DB, at
/// most Options.Jobs at a time. Each source's diagnostics go to stderr
/// together, sources in the order given (preceded, on several sources and
/// not a terminal, by a `[k/N] Rewriting <source>` line); on a terminal a
/// `[k/N] <source>` line shows the progress. Results are in the order of
/// \p Sources.
std::vector<FileRun> rewriteSources(
    const clang::tooling::CompilationDatabase &DB,
    llvm::ArrayRef<std::string> Sources, const rewrite::HeaderPaths &Paths,
    const rewrite::RuleSelection &Selection, const RunOptions &Options);

/// A function is compiled once (lib/Analysis/WidthModel.h): the sources of
/// \p Runs whose components hold a function of a project header that is
/// warp code, and would decide otherwise with the width facts that other
/// sources' components found for it (RewriteOutput::HeaderWidths;
/// rewrite::decideWarpModel), are rewritten again with every
/// source's facts (RewriteOptions::ExternalWidths, left in \p Options for
/// the passes after), their runs replaced, until all agree. Says so on
/// stderr unless quiet.
void joinAcrossSources(const clang::tooling::CompilationDatabase &DB,
                       llvm::ArrayRef<std::string> Sources,
                       const rewrite::HeaderPaths &Paths,
                       const rewrite::RuleSelection &Selection,
                       RunOptions &Options, std::vector<FileRun> &Runs);

/// The warp is one thing in a program (lib/Analysis/WidthModel.h): when a
/// kernel of one of \p Runs keeps 32-lane warps (RewriteOutput::Narrowing),
/// the sources whose kernels run at the device's width are rewritten again
/// with that fact (RewriteOptions::ExternalNarrowing), their runs replaced,
/// as the kernels of one file are. Says so on stderr unless quiet.
void narrowAcrossSources(const clang::tooling::CompilationDatabase &DB,
                         llvm::ArrayRef<std::string> Sources,
                         const rewrite::HeaderPaths &Paths,
                         const rewrite::RuleSelection &Selection,
                         RunOptions Options, std::vector<FileRun> &Runs);

/// For `--all`: the compilation database of `-p DIR`, or found in the
/// current directory or a parent, with `--extra-arg` and
/// `--extra-arg-before` applied as CommonOptionsParser applies them (which
/// loads no database when it is given no source).
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
projectDatabase();

/// What `--all` takes from a compilation database.
/// Port mode's --all: the CUDA and C++ sources of \p DB (by their names,
/// or their commands' `-x cu`, `-x cuda`, `-x c++`): a host source of a
/// CUDA project includes the runtime API's headers too. Absolute, sorted,
/// without duplicates.
std::vector<std::string>
portSources(const clang::tooling::CompilationDatabase &DB);

struct ProjectSources {
  /// The dialect sources, sorted and without duplicates.
  std::vector<std::string> Sources;
  /// The sources found through an output of hpp-rewrite that the database
  /// compiles (the build step of the CMake package, whose outputs name
  /// their source on their first line), and that output.
  std::map<std::string, std::string> ThroughOutput;
  /// Files of the database that include hpp/runtime.h without naming a
  /// source: outputs of a version that did not mark them, or code written
  /// for the runtime. Not rewritten.
  std::vector<std::string> Unnamed;
};

/// `--all`: the files of \p DB whose translation unit includes
/// `hpp/hpp.h`, directly or through headers. Each is run through the
/// preprocessor with its compile command (the dialect header itself read
/// as empty, so the check costs little); a file that the preprocessor
/// cannot read to the end without having seen `hpp/hpp.h` is taken too,
/// so that its rewrite reports the error instead of the file being
/// skipped unnoticed. An output of hpp-rewrite is not run: the source it
/// names is taken instead, unless the database compiles that source too.
ProjectSources dialectSources(const clang::tooling::CompilationDatabase &DB,
                              const rewrite::HeaderPaths &Paths,
                              const RunOptions &Options);

/// \p DB, where each source of \p Found.ThroughOutput takes the compile
/// commands of its output, the output's name replaced by the source's and
/// the flags kept as `--parse-flags-only` keeps them (an output's compile
/// may be nvcc's). \p DB must outlive the result.
std::unique_ptr<clang::tooling::CompilationDatabase>
commandsThroughOutputs(const clang::tooling::CompilationDatabase &DB,
                       const ProjectSources &Found);

/// \p Path made absolute, with `.` and `..` removed (a destination as the
/// user named it).
std::string absolutePath(llvm::StringRef Path);

/// The directory that holds every one of \p Files (absolute paths): what
/// `--output-dir` mirrors.
std::string commonDirectory(llvm::ArrayRef<std::string> Files);

/// Prints the summary of \p Runs, which took \p Seconds: files rewritten,
/// unchanged and failed, kernels outlined, edits by rule, warnings,
/// errors, time.
void printSummary(llvm::raw_ostream &OS, llvm::ArrayRef<FileRun> Runs,
                  double Seconds);

} // namespace tool
} // namespace hpp

#endif // HPP_REWRITE_TOOL_PROJECT_H
