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
};

/// The file \p Path names, symlinks followed: where the text goes. An
/// error (naming \p Path) for a destination that must not be written: not
/// a regular file (other than /dev/null), or one of \p Inputs.
llvm::Expected<std::string> resolveDestination(llvm::StringRef Path,
                                               llvm::ArrayRef<std::string> Inputs);

/// Writes every one of \p Outputs, or none (see the file comment); errors
/// name the file. \p PauseMs: a pause after each rename (the tests kill
/// the tool there).
llvm::Error writeAllOrNothing(llvm::ArrayRef<PendingOutput> Outputs,
                              unsigned PauseMs = 0);

} // namespace tool
} // namespace hpp

#endif // HPP_REWRITE_TOOL_OUTPUTFILES_H
