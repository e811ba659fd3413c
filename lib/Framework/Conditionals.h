//===- Conditionals.h - The main file's #if blocks --------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The tool rewrites the branches of `#if` blocks that were active when it
/// parsed. Code it inserts must not land in a branch the build may skip
/// while the code that needs it is compiled: ConditionalBlocks records the
/// main file's blocks so that an insertion point can be moved before the
/// `#if` of any block that ends before the code using the insertion.
/// (Inactive branches are not parsed, so dialect code there is left as
/// written; a build that takes them fails to compile it.)
///
/// It also records the blocks of every other file, include guards left
/// out: a declaration inside one (`#ifdef NDEBUG const int Mode = 1;`)
/// has a value the build that compiles the output may not share, so the
/// outliner never copies it (Analysis/ConstantOrigin.h). A header read
/// from a precompiled header (lib/Driver/DialectPCH.h) was never seen by
/// the preprocessor's callbacks: its blocks come from its text.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_FRAMEWORK_CONDITIONALS_H
#define HPP_REWRITE_LIB_FRAMEWORK_CONDITIONALS_H

#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace hpp {
namespace rewrite {

/// The main file's `#if` ... `#endif` blocks.
class ConditionalBlocks {
public:
  /// Starts recording on \p PP.
  static std::shared_ptr<ConditionalBlocks> record(clang::Preprocessor &PP);

  /// \p InsertAt, or the start of the line of the outermost `#if` whose
  /// block holds \p InsertAt but ends before \p Use.
  clang::SourceLocation hoist(clang::SourceLocation InsertAt,
                              clang::SourceLocation Use,
                              const clang::SourceManager &SM) const;

  /// Whether \p Loc (a file location) lies inside an `#if` block of its
  /// file that is not the file's include guard.
  bool encloses(clang::SourceLocation Loc,
                const clang::SourceManager &SM) const;

  struct Block {
    clang::SourceLocation If;    ///< start of the `#if` line
    clang::SourceLocation Endif; ///< the `endif` token
  };
  /// The main file's blocks.
  std::vector<Block> Blocks;
  /// The blocks of every file, in the order their `#endif`s come, with
  /// whether each is the first of its file (the candidate include guard).
  struct AnyBlock {
    Block B;
    bool FirstOfFile;
  };
  std::vector<AnyBlock> AllBlocks;
  /// The `#if`, `#ifdef` and `#ifndef` blocks of \p FID as its text has
  /// them (raw lexing: comments and literals are not directives), in the
  /// order of their `#endif`s; also those inside branches a parse skips.
  static std::vector<AnyBlock> lexBlocks(clang::FileID FID,
                                         const clang::SourceManager &SM,
                                         const clang::LangOptions &LangOpts);
  /// The header search that knows the include guards.
  const clang::HeaderSearch *Headers = nullptr;
  const clang::LangOptions *LangOpts = nullptr;

private:
  /// The blocks of a file the parse read from a precompiled header (whose
  /// directives the callbacks never saw), from its text, once.
  const std::vector<AnyBlock> &
  lexedBlocks(clang::FileID FID, const clang::SourceManager &SM) const;
  mutable llvm::DenseMap<clang::FileID, std::vector<AnyBlock>> Lexed;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_FRAMEWORK_CONDITIONALS_H
