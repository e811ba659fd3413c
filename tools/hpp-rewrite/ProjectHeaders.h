//===- ProjectHeaders.h - One rewrite of each project header ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Each translation unit rewrites the project headers it includes
/// (RewriteOutput::Headers); a header is written once, so the units must
/// agree on it. Their edits are merged as clang-apply-replacements merges
/// them: an edit several units made is made once. The union is right for
/// every unit only where each unit that did not make an edit has no device
/// code there (a function that is host code in one unit may be device code
/// in another, and is rewritten for it; RewriteOutput::HeaderDeviceCode).
/// Anything else is a conflict: an error at the header's line naming both
/// units, and nothing is written.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_TOOL_PROJECTHEADERS_H
#define HPP_REWRITE_TOOL_PROJECTHEADERS_H

#include "OutputFiles.h"
#include "Project.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>
#include <vector>

namespace hpp {
namespace tool {

/// A project header as the run writes it.
struct MergedHeader {
  std::string File; ///< its real path
  std::string Text; ///< the rewrite
  /// Replacements on File that give Text (`--export-fixes`).
  std::vector<clang::tooling::Replacement> Fixes;
  /// The runs (indices) that rewrote it.
  std::vector<size_t> Units;
  /// The rules' edits (each once, whichever runs made it), in order.
  std::vector<rewrite::EditRecord> Edits;
  /// Where it is written (headerOutputs); empty when not written.
  std::string Output;
};

/// Merges the header rewrites of \p Runs (those without errors). A
/// conflict is printed on \p OS as clang prints an error, recorded in the
/// log of each run involved, and fails them (FileRun::Ok false).
std::vector<MergedHeader> mergeHeaders(std::vector<FileRun> &Runs,
                                       llvm::raw_ostream &OS);

/// \p Path with symbolic links resolved (as given when it does not exist).
std::string realPath(llvm::StringRef Path);

/// Whether \p Path (absolute, without `.` or `..`) lies under \p Dir.
bool isUnder(llvm::StringRef Path, llvm::StringRef Dir);

/// Adds to \p Pending where the project headers go. With \p OutputDir:
/// every project header the runs read (rewritten, or as it is under the
/// output's first line), mirrored below \p Root, so that a rewritten
/// source or header includes the rewritten headers, whoever includes them
/// (only the include path's own directories need the mirror put first).
/// Without (`--in-place`): each rewritten header over itself, kept as
/// `.orig` with \p Backup. Each destination is checked as a source's is
/// (OutputFiles.h); false after an error printed. \p Changed gets the
/// headers (real paths) whose destination does not hold the text yet.
bool headerOutputs(std::vector<MergedHeader> &Headers,
                   llvm::ArrayRef<FileRun> Runs,
                   llvm::ArrayRef<std::string> Sources,
                   const rewrite::HeaderPaths &Paths, llvm::StringRef Root,
                   llvm::StringRef OutputDir, bool Backup,
                   std::vector<PendingOutput> &Pending,
                   std::set<std::string> &Changed);

} // namespace tool
} // namespace hpp

#endif // HPP_REWRITE_TOOL_PROJECTHEADERS_H
