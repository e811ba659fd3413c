//===- hpp-rewrite/EditCollector.h - Per-file replacements ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Rules never touch buffers: they hand edits to the EditCollector, which
/// keeps one tooling::Replacements per file, refuses edits inside macro
/// expansions or outside the rewritten files (the main file and the
/// project headers: Framework/RewriteScope.h), reports conflicts, and
/// applies everything once at the end.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_EDITCOLLECTOR_H
#define HPP_REWRITE_EDITCOLLECTOR_H

#include "hpp-rewrite/Diagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

class LineDirectives;

/// One edit as a rule made it, on the main file or a project header (the
/// JSON report).
struct EditRecord {
  std::string Rule;                ///< the rule's tag
  std::string File;                ///< the file, as the parse named it
  unsigned Offset = 0, Length = 0; ///< bytes of the original file
  unsigned Line = 0, Column = 0;   ///< where Offset is, 1-based
  std::string Text;                ///< the replacement text
  /// Another rule moved the text this edit lies in (a body outlined into a
  /// kernel): the edit reaches the output inside that rule's edit.
  bool Moved = false;
};

/// A project header rewritten (EditCollector::applyToHeaders).
struct RewrittenHeader {
  /// The header's real path (symbolic links resolved): one name for a
  /// header however its includes reach it.
  std::string File;
  /// The header with every edit applied, under a first line
  /// `#line 1 "<File>" // hpp-rewrite output`.
  std::string Text;
  /// Replacements on File that turn it into Text byte for byte.
  std::vector<clang::tooling::Replacement> Fixes;
  /// The first line (`#line 1 ...` and the mark, with its line end).
  std::string Top;
  /// The rules' edits of the header, without Top (in the header's line
  /// endings): what the tool merges across translation units.
  std::vector<clang::tooling::Replacement> Edits;
};

/// Collects the edits of all rules for one translation unit.
class EditCollector {
public:
  EditCollector(clang::SourceManager &SM, RuleDiagnostics &Diags)
      : SM(SM), Diags(Diags) {}

  /// Replaces \p Range (in the main file) with \p Text. Returns false (and
  /// reports why, tagged with \p Rule) when the edit cannot be made.
  bool replace(clang::CharSourceRange Range, llvm::StringRef Text,
               llvm::StringRef Rule);
  /// Inserts \p Text before \p Loc.
  bool insert(clang::SourceLocation Loc, llvm::StringRef Text,
              llvm::StringRef Rule);

  /// Removes the edits lying wholly inside \p Range (a main-file char
  /// range) and returns them with offsets relative to the range's start:
  /// a rule that moves text elsewhere carries the edits along with it.
  clang::tooling::Replacements extract(clang::CharSourceRange Range);

  /// Reports, once per header, that dialect code at \p Loc lies in a
  /// header the tool does not rewrite (system headers need no rewrite).
  void refuseHeader(clang::SourceLocation Loc, llvm::StringRef Rule);

  /// Adds the `#line` directives \p Lines says keep the output's line
  /// numbers the input's (recorded as edits of rule \p Rule).
  void syncLines(const LineDirectives &Lines, llvm::StringRef Rule);

  /// The main file with every edit applied, or std::nullopt (after a
  /// diagnostic) when applying failed.
  std::optional<std::string> applyToMainFile();

  /// Every project header with edits, rewritten (with `#line` directives
  /// that keep its numbering: syncHeaderLines); std::nullopt (after a
  /// diagnostic tagged \p Rule) when that failed.
  std::optional<std::vector<RewrittenHeader>>
  applyToHeaders(llvm::StringRef Rule);

  /// Replacements on the original main file that turn it into exactly what
  /// applyToMainFile() returned (\p Result): the edits it applied, or,
  /// where those do not give \p Result byte for byte (line endings made
  /// CRLF), one replacement of the span that differs.
  std::vector<clang::tooling::Replacement>
  mainFileFixes(llvm::StringRef Result) const;

  /// Every edit made, in the order the rules made them.
  const std::vector<EditRecord> &records() const { return Records; }

  /// Number of edits collected so far.
  unsigned size() const { return Count; }

private:
  /// \p Code (of \p File) with \p Edits applied, its line endings kept;
  /// std::nullopt after an internal error.
  std::optional<std::string> apply(clang::FileID File, llvm::StringRef Code,
                                   const clang::tooling::Replacements &Edits);
  /// \p Edits of the project header \p File (text \p Code, real path
  /// \p Name), with the `#line` directives that keep its numbering after an
  /// edit that changes the number of lines: at the end of text inserted at
  /// a line start, else at the start of the next line. std::nullopt after
  /// an internal error (tagged \p Rule) where the next line cannot take one.
  std::optional<clang::tooling::Replacements>
  syncHeaderLines(clang::FileID File, llvm::StringRef Code,
                  const clang::tooling::Replacements &Edits,
                  llvm::StringRef Name, llvm::StringRef Rule);
  /// Replacements on \p Path (text \p Code) that give \p Result: \p Made,
  /// or one span where those do not give it byte for byte.
  static std::vector<clang::tooling::Replacement>
  fixesFor(llvm::StringRef Path, llvm::StringRef Code,
           const clang::tooling::Replacements &Made, llvm::StringRef Result);

  /// Reports that rule \p Rule's edit of \p Length bytes at main-file
  /// \p Offset (at \p Loc) collides with an edit already made: an error
  /// (the driver then writes nothing), with a note at the other edit.
  void reportConflict(clang::SourceLocation Loc, llvm::StringRef File,
                      unsigned Offset, unsigned Length, llvm::StringRef Rule);

  clang::SourceManager &SM;
  RuleDiagnostics &Diags;
  std::map<std::string, clang::tooling::Replacements> PerFile;
  /// The file of each key of PerFile.
  std::map<std::string, clang::FileID> Files;
  /// Headers an edit was refused in (one error each).
  std::set<std::string> RefusedHeaders;
  std::vector<EditRecord> Records;
  unsigned Count = 0;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_EDITCOLLECTOR_H
