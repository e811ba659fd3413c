//===- LineDirective.h - The #line lines of outputs ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The `#line` directives the tool writes into its outputs, spelled in one
/// place: the first line that marks an output and names its input, and the
/// directives that keep an output's line numbers those of its input
/// (lib/Framework/LineDirectives.h, EditCollector's headers, kernels
/// outlined into headers).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LINEDIRECTIVE_H
#define HPP_REWRITE_LINEDIRECTIVE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace hpp {
namespace rewrite {

/// The comment that ends the first line of every output that differs from
/// its input, `#line 1 "<input>" // hpp-rewrite output`: how the tool
/// recognizes its own outputs (it replaces no other existing file) and
/// finds their sources (`--all` on a build of the CMake package).
inline constexpr llvm::StringLiteral OutputMark = "// hpp-rewrite output";

/// `#line \p Line "\p File"` and a newline, the name escaped as a string
/// literal's (`"` and `\`).
inline std::string lineDirective(unsigned Line, llvm::StringRef File) {
  std::string Out = "#line " + std::to_string(Line) + " \"";
  for (char C : File) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"\n";
}

/// The first line of an output made from \p Input:
/// `#line 1 "<input>" // hpp-rewrite output`, ended as the file's lines are
/// (\p CRLF).
inline std::string outputFirstLine(llvm::StringRef Input, bool CRLF = false) {
  std::string Top = lineDirective(1, Input);
  Top.insert(Top.size() - 1, " " + OutputMark.str());
  if (CRLF)
    Top.insert(Top.size() - 1, "\r");
  return Top;
}

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LINEDIRECTIVE_H
