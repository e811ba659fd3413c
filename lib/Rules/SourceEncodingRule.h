//===- SourceEncodingRule.h - Literals nvcc can read ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_SOURCEENCODINGRULE_H
#define HPP_REWRITE_LIB_RULES_SOURCEENCODINGRULE_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// nvcc refuses a byte that is not part of a UTF-8 sequence in a string or
/// character literal, anywhere in the file ("invalid multibyte character
/// sequence"), where g++ and clang keep the byte. In the main file's
/// narrow literals (`"caf\xE9"` written as the byte 0xE9 itself, in Latin-1
/// say), each such byte becomes its octal escape (`\351`), the same byte
/// in the program; a raw, wide or UTF literal holding one is an error.
/// Inactive `#if` branches and macro definitions are rewritten too: another
/// build may compile them.
class SourceEncodingRule : public Rule {
public:
  using Rule::Rule;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override;
};

} // namespace rewrite
} // namespace hpp

#endif
