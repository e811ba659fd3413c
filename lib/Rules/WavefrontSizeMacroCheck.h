//===- WavefrontSizeMacroCheck.h - Preprocessor widths ----------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_WAVEFRONTSIZEMACROCHECK_H
#define HPP_REWRITE_LIB_RULES_WAVEFRONTSIZEMACROCHECK_H

#include "hpp-rewrite/Rule.h"

#include "clang/Lex/Token.h"

namespace hpp {
namespace rewrite {

/// Warns about wavefront widths taken from the preprocessor in the main
/// file: `__AMDGCN_WAVEFRONT_SIZE__` (removed in ROCm 7.2; in code and macro
/// bodies a fix-it to `hpp::getWarpSize()`, in `#if`/`#ifdef`/`defined()` a
/// note), and `#if`/`#ifdef` on AMD target macros (`__GFX9__`, `__gfx90a__`,
/// ...) whose conditional block mentions a width (32, 64, warpSize): wave64
/// vs wave32 is per target. Preprocessor callbacks see the directives, the
/// expansions and the skipped blocks; directive lines and skipped blocks
/// are read token by token as written, since these macros are usually
/// undefined when the tool parses.
class WavefrontSizeMacroCheck : public Rule {
public:
  using Rule::Rule;
  void registerPPCallbacks() override;

private:
  /// Checks the raw tokens from the line of \p Begin up to \p End, or to
  /// the end of that directive line when \p End is invalid.
  void scan(clang::SourceLocation Begin, clang::SourceLocation End);
  /// Checks one raw token; \p Directive is "" in code, \p Pos its position
  /// in the directive (0 = `#`, 1 = name).
  void check(const clang::Token &T, llvm::StringRef Directive, unsigned Pos,
             clang::SourceLocation DirectiveLoc);
  /// True when the conditional chain from the directive at \p DirectiveLoc
  /// to its #endif mentions a width.
  bool chainMentionsWidth(clang::SourceLocation DirectiveLoc);
  void reportCodeUse(clang::SourceLocation Loc);

  clang::SourceLocation LastTargetTest;
};

} // namespace rewrite
} // namespace hpp

#endif
