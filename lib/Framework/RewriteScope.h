//===- Framework/RewriteScope.h - The files a rewrite edits -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which files of a translation unit the rewrite edits: the main file and
/// the project headers, the files under the project root (`--root`) that
/// the parse does not take as system headers. The dialect's and the
/// runtime's headers are included as system headers (RewriteArguments.h),
/// so they are never project headers, wherever they lie.
///
/// Every rule and analysis asks the scope of its source manager
/// (RewriteScope::of) where it asked whether a location is in the main
/// file; without a root the scope is the main file alone, as before
/// project headers were rewritten.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_FRAMEWORK_REWRITESCOPE_H
#define HPP_REWRITE_LIB_FRAMEWORK_REWRITESCOPE_H

#include "clang/ASTMatchers/ASTMatchersMacros.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace hpp {
namespace rewrite {

/// The files one translation unit's rewrite may edit.
class RewriteScope {
public:
  /// The scope of \p SM's translation unit with project root \p Root (an
  /// absolute directory; empty: the main file only). It is what
  /// RewriteScope::of(\p SM) returns while it lives.
  RewriteScope(const clang::SourceManager &SM, llvm::StringRef Root);
  ~RewriteScope();
  RewriteScope(const RewriteScope &) = delete;
  RewriteScope &operator=(const RewriteScope &) = delete;

  /// The scope registered for \p SM, or null (the main file only).
  static const RewriteScope *of(const clang::SourceManager &SM);

  /// Whether \p File is rewritten: the main file or a project header.
  bool isRewritten(clang::FileID File) const;
  /// Whether \p File is a project header (rewritten, not the main file).
  bool isProjectHeader(clang::FileID File) const;
  /// The root, with symbolic links resolved; empty without one.
  llvm::StringRef root() const { return Root; }
  /// Whether the real path \p Path lies under the root.
  bool isUnderRoot(llvm::StringRef Path) const;

private:
  const clang::SourceManager &SM;
  std::string Root;
  /// Whether each file asked about lies under the root.
  mutable llvm::DenseMap<clang::FileID, bool> UnderRoot;
};

/// Whether \p Loc is spelled in a rewritten file (a macro location is
/// not), as SourceManager::isWrittenInMainFile asks of the main file.
bool isWrittenInRewrittenFile(const clang::SourceManager &SM,
                              clang::SourceLocation Loc);
/// Whether the expansion location of \p Loc is in a rewritten file.
bool isExpansionInRewrittenFile(const clang::SourceManager &SM,
                                clang::SourceLocation Loc);
/// Whether \p Loc is spelled in a project header (rewritten, not the main
/// file).
bool isWrittenInProjectHeader(const clang::SourceManager &SM,
                              clang::SourceLocation Loc);

/// `FILE:LINE:COL` of \p Loc's expansion, the file by its real path (as
/// every translation unit of a run names it): how a place of a project
/// header is named across translation units (RewriteOutput::HeaderWidths).
std::string placeName(const clang::SourceManager &SM,
                      clang::SourceLocation Loc);

/// `#line N "FILE"` and a newline naming the line of \p Loc (a file
/// location in a project header) and the header by its real path, as the
/// first line of its rewrite names it.
std::string headerLineDirective(const clang::SourceManager &SM,
                                clang::SourceLocation Loc);

/// Matches a node whose beginning expands in a rewritten file: the
/// project's isExpansionInMainFile.
AST_POLYMORPHIC_MATCHER(isExpansionInRewrittenFile,
                        AST_POLYMORPHIC_SUPPORTED_TYPES(clang::Decl,
                                                        clang::Stmt,
                                                        clang::TypeLoc)) {
  const clang::SourceManager &SM = Finder->getASTContext().getSourceManager();
  return isExpansionInRewrittenFile(SM, Node.getBeginLoc());
}

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_FRAMEWORK_REWRITESCOPE_H
