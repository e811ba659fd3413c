//===- OutputFiles.h - Writing the rewritten sources safely -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How hpp-rewrite writes what it produced (`-o`, `--in-place`,
/// `--depfile`), so that it never hurts the files it was given:
///  - a destination that is a symlink is written through, to its target;
///  - a destination that exists and is not a regular file (a directory, a
///    FIFO, a device) is refused, except /dev/null, which discards;
///  - `-o` naming one of the inputs is refused (that is `--in-place`);
///  - a rewrite (`-o`, `--output-dir`) replaces no file but the tool's
///    own outputs (checkReplaceable): a file of the compilation database,
///    a project's source or header, any file it did not write, is refused
///    before anything is parsed;
///  - every file is first written to a temporary file beside its
///    destination, with the destination's permissions; only when all of
///    them are written are they renamed into place, each rename atomic, so
///    a run that fails, or is killed, leaves every file either as it was
///    or fully rewritten, never half-written. A failed rename undoes the
///    renames made before it from the backups;
///  - `--in-place` keeps each original as `<file>.orig` unless
///    `--no-backup`.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_TOOL_OUTPUTFILES_H
#define HPP_REWRITE_TOOL_OUTPUTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace hpp {
namespace tool {

/// One file to write: \p Text into \p Path (as the user named it).
struct PendingOutput {
  std::string Path;
  std::string Text;
  /// Keep the file being replaced as Path + ".orig" (`--in-place`).
  bool Backup = false;
  /// Write it even when the file holds the text already (its time then
  /// says that a header it includes changed). Otherwise, and without
  /// Backup, such a file is left as it is.
  bool Force = false;
};

/// The file \p Path names, symlinks followed: where the text goes. An
/// error (naming \p Path) for a destination that must not be written: not
/// a regular file (other than /dev/null), or one of \p Inputs.
llvm::Expected<std::string>
resolveDestination(llvm::StringRef Path, llvm::ArrayRef<std::string> Inputs);

/// Normalized paths of the files a compilation database compiles, for
/// checkReplaceable.
class ProjectFiles {
public:
  explicit ProjectFiles(llvm::ArrayRef<std::string> Files);
  /// Whether \p Path (existing or not) is one of them.
  bool contains(llvm::StringRef Path) const;

private:
  std::vector<std::string> Files;
  mutable std::vector<std::string> Real; ///< made on the first query
};

/// Whether the rewrite of \p Input may be written to \p Dest (as
/// resolveDestination gave it), an error naming \p Dest saying why not:
///  - a file \p Project compiles is refused, unless it is an output of
///    hpp-rewrite (a build step's output compiled in the build);
///  - a file that does not exist, and /dev/null, may be written;
///  - an existing file only when it is an output of hpp-rewrite: its first
///    line is `#line 1 "<file>" // hpp-rewrite output` (rewrite::OutputMark)
///    naming another file than itself (a source rewritten in place names
///    itself: it is a source now), or `#line 1 "<Input>"` without the mark
///    (an output of an earlier version), or it holds the same text as
///    \p Input (a source with nothing to lower rewrites to itself).
llvm::Error checkReplaceable(llvm::StringRef Dest, llvm::StringRef Input,
                             const ProjectFiles &Project);

/// The Makefile rule "Target: Deps..." (`--depfile`), spaces and '#'
/// escaped as make and Ninja read them.
std::string depFileText(llvm::StringRef Target,
                        const std::vector<std::string> &Deps);

/// Creates the directories that \p Outputs go to; \p Created gets those
/// made, shallowest first.
llvm::Error makeDirectories(llvm::ArrayRef<PendingOutput> Outputs,
                            std::vector<std::string> &Created);

/// Writes every one of \p Outputs, or none (see the file comment); errors
/// name the file. \p PauseMs: a pause after each rename (the tests kill
/// the tool there).
llvm::Error writeAllOrNothing(llvm::ArrayRef<PendingOutput> Outputs,
                              unsigned PauseMs = 0);

} // namespace tool
} // namespace hpp

#endif // HPP_REWRITE_TOOL_OUTPUTFILES_H
