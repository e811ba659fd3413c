//===- MacroRestate.h - Macros as they were where copied text was ---*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The outliner copies source text (a body, the declarations it repeats)
/// to another place of the file: above the function that held it, or after
/// its class. A macro the text uses may be defined differently there, or
/// not at all: a `#define IDX(r, c) ...` inside `main`, a `#undef` and a
/// new `#define` before the body. Compiled at its new place, the text
/// would expand the other definition (or none).
///
/// restateMacros finds every macro the copied text names, directly or
/// through the definitions it expands, whose definition where the text was
/// written differs from the one at the destination (or that the text
/// itself defines or removes), and returns the directives that make the
/// destination see the text's definitions and then restore its own:
///
///   #pragma push_macro("SCALE")       // defined at the destination
///   #undef SCALE
///   #define SCALE 3                   // as at the body
///   ...kernel...
///   #pragma pop_macro("SCALE")
///
/// A macro undefined at the destination is defined before and removed
/// after. The restated definition is the text of its `#define`, so the
/// build that compiles the output expands the same tokens; a definition
/// that exists only on the command line (`-D`), which could differ in that
/// build, is never copied: restating one is an error.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_MACRORESTATE_H
#define HPP_REWRITE_LIB_OUTLINE_MACRORESTATE_H

#include "Outline/OutlineError.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace hpp {
namespace rewrite {

/// Directives to put before and after text copied to another place.
struct MacroRestate {
  std::string Before; ///< each line ends in a newline
  std::string After;  ///< each line ends in a newline
  bool empty() const { return Before.empty() && After.empty(); }
};

/// The directives that let the text of \p Copied (main-file character
/// ranges, in the order they are repeated) mean at \p Dest what it means
/// where it is written. std::nullopt, with \p Err at the copied use, when
/// one macro would need two definitions, or a definition that only the
/// command line gives.
std::optional<MacroRestate>
restateMacros(clang::Preprocessor &PP,
              llvm::ArrayRef<clang::CharSourceRange> Copied,
              clang::SourceLocation Dest, OutlineError &Err);

/// The first `#define` or `#undef` directive in \p Body (a main-file
/// character range), with the macro's name in \p Name; invalid when none.
/// Text that moves into a kernel takes its directives along: the code after
/// it in the function would no longer see them.
clang::SourceLocation macroDirectiveIn(clang::CharSourceRange Body,
                                       const clang::SourceManager &SM,
                                       const clang::LangOptions &LO,
                                       std::string &Name);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_MACRORESTATE_H
