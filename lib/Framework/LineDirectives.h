//===- LineDirectives.h - The output keeps the input's lines ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The output moves code: each body into a kernel, kernels inserted above
/// their function, launches that take more lines than the call they
/// replace. Without help, every `__builtin_LINE()` and `__builtin_FILE()`
/// the runtime takes as a default argument (the location a RuntimeError,
/// a task's error or a device error record names), every `__FILE__`, and
/// every diagnostic of nvcc or hipcc would name the output's lines.
///
/// LineDirectives inserts `#line N "FILE"` where the output's numbering
/// departs from the input's: at the top of an output that has any edit (so
/// that `__FILE__` names the input everywhere), before each outlined body
/// (its lines are the lambda's), after code the rewrite inserted, and
/// inside a body after an edit that changed its line count. Where the line
/// after an edit that took lines away cannot take a directive, the edit
/// ends with as many newlines instead. A directive goes only at the start of
/// a line where the preprocessor honours it in every build: not on a
/// continued line, not inside a comment or a literal that spans lines, not
/// inside a macro's arguments, and not in a branch the parse skipped.
/// Where that does not hold, the next line that is safe gets it. A
/// directive inside an `#if` block is followed by one after its `#endif`:
/// a build that skips the block skips the directive too.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_FRAMEWORK_LINEDIRECTIVES_H
#define HPP_REWRITE_LIB_FRAMEWORK_LINEDIRECTIVES_H

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Core/Replacement.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hpp {
namespace rewrite {

class ConditionalBlocks;

/// Where `#line` directives may go in the main file, and the edits that
/// keep the output's line numbers those of the input.
class LineDirectives {
public:
  LineDirectives(const clang::SourceManager &SM,
                 const clang::LangOptions &LangOpts);
  ~LineDirectives();

  /// Starts recording the main file's macro invocations and `#if` blocks
  /// on \p PP (before parsing).
  void record(clang::Preprocessor &PP);

  /// Whether a directive may be inserted at main-file offset \p Offset,
  /// a line start: the preprocessor honours it there in every build.
  bool canInsertAt(unsigned Offset) const;

  /// `#line N "FILE"` and a newline, naming the line and file the input
  /// gives main-file offset \p Offset.
  std::string directiveAt(unsigned Offset) const;
  /// The directive at the top of the output: directiveAt(0) with the mark
  /// that tells the tool its own outputs (Driver.h, OutputMark).
  std::string topDirective() const;

  /// \p Edits of the main file's text [\p Base, \p End) (offsets relative
  /// to \p Base), with the directives added that keep the lines after each
  /// edit numbered as in the input. Fills \p Added, when given, with the
  /// main-file offsets where directives go.
  clang::tooling::Replacements
  synced(const clang::tooling::Replacements &Edits, unsigned Base, unsigned End,
         std::vector<unsigned> *Added = nullptr) const;

  /// Notes that the main file's text [\p Begin, \p End) is re-emitted
  /// elsewhere behind a directive of its own (an outlined body): its lines
  /// keep their numbers, but where synced() says they drift.
  void cover(unsigned Begin, unsigned End) const;

  /// Whether a token at main-file offset \p Offset may get another line
  /// number in the output than in the input, once synced() has run for the
  /// whole file: it lies between an edit that changed the line count and
  /// the next line that could take a directive, or inside a range an edit
  /// replaced (but a re-emitted one: cover).
  bool drifts(unsigned Offset) const;

  /// The number a line directive in \p Text gives the line after its last
  /// one, and the newlines that follow that line; std::nullopt without one.
  static std::optional<std::pair<unsigned, unsigned>>
  lastDirective(llvm::StringRef Text);

  /// The `#if` blocks recorded with the lines (Conditionals.h).
  const ConditionalBlocks &conditionals() const { return *Conditionals; }

private:
  unsigned lineAt(unsigned Offset) const;
  /// The offset after the `#endif` line of the outermost `#if` block that
  /// holds \p Offset and begins at or after \p Base; 0 for none.
  unsigned blockEnd(unsigned Offset, unsigned Base) const;
  void lexOnce() const;

  const clang::SourceManager &SM;
  clang::LangOptions LangOpts;
  clang::FileID Main;
  llvm::StringRef Code;
  std::shared_ptr<ConditionalBlocks> Conditionals;
  /// Half-open offset ranges in which no line may begin with a directive.
  mutable std::vector<std::pair<unsigned, unsigned>> Unsafe;
  /// Recorded while parsing: the lines inside macro invocations and inside
  /// the branches the parse skipped.
  std::shared_ptr<std::vector<std::pair<unsigned, unsigned>>> Invocations;
  mutable bool Lexed = false;
  /// Found by synced() and cover(), for drifts(): offset ranges whose
  /// lines drift, ranges an edit replaced, and re-emitted ranges.
  mutable std::vector<std::pair<unsigned, unsigned>> Drifted, Replaced, Covered;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_FRAMEWORK_LINEDIRECTIVES_H
