//===- AnalysisTestSupport.h - Snippets parsed as the tool does -*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The fixture of the analyses' unit tests: a source snippet parsed with the
/// flags hpp-rewrite parses dialect code with (rewriteArguments(), with the
/// headers of this source tree), kept alive so that a test can build an
/// analysis on its AST the way the driver does (lib/Driver/Driver.cpp): the
/// traversal scope is the main file's top-level declarations, and the
/// LineDirectives recorded the preprocessor while the snippet was parsed.
/// Lookups find what a test asserts on by name or by its text.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_UNITTESTS_ANALYSISTESTSUPPORT_H
#define HPP_REWRITE_UNITTESTS_ANALYSISTESTSUPPORT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class CompilerInstance;
class FrontendAction;
class FileManager;
class Preprocessor;
} // namespace clang

namespace hpp {
namespace rewrite {

class LineDirectives;

namespace test {

/// The path the snippet is parsed as.
inline constexpr llvm::StringLiteral MainFile = "/unit/input.cpp";

/// One snippet parsed as hpp-rewrite parses a source; its AST, source
/// manager and diagnostics live as long as the object.
class ParsedSource {
public:
  /// Parses \p Code as the main file (MainFile) with the tool's flags.
  /// \p Files are more files the code may include, as (absolute path,
  /// text) pairs. Never null; check ok() for errors.
  static std::unique_ptr<ParsedSource>
  parse(llvm::StringRef Code,
        llvm::ArrayRef<std::pair<std::string, std::string>> Files = {});
  /// Parses \p Code as port mode parses a CUDA source (`--port`: clang's
  /// CUDA front end, the tool's declarations of the CUDA headers).
  static std::unique_ptr<ParsedSource> parseCuda(llvm::StringRef Code);
  /// Parses \p Code after the lines a dialect program starts with:
  /// `#include <hpp/hpp.h>` and `using namespace hpp;`. The header comes
  /// from a precompiled header built once per run with the same flags
  /// (set HPP_UNITTESTS_NO_PCH=1 to parse it each time, as the tool does).
  static std::unique_ptr<ParsedSource> parseDialect(llvm::StringRef Code);
  ~ParsedSource();

  /// True when the snippet parsed without errors.
  bool ok() const;
  /// Every diagnostic printed so far, as clang prints them (no colors).
  std::string diagnostics() const;

  clang::ASTContext &context();
  /// The compiler that parsed the snippet, for what the driver hands a
  /// rule (RuleContext).
  clang::CompilerInstance &compiler();
  clang::SourceManager &sourceManager();
  const clang::LangOptions &langOpts();
  clang::DiagnosticsEngine &diagnosticsEngine();
  /// The preprocessor that read the snippet (its macros, for the outliner's
  /// restated macros).
  clang::Preprocessor &preprocessor();
  /// The `#line` analysis, recorded on the preprocessor while parsing (as
  /// the driver's RuleContext::lines()).
  LineDirectives &lines();

  /// The main file's text.
  llvm::StringRef code() const;
  /// The first definition (in source order) of a function of the main file
  /// named \p Name (a constructor by its class's name), as written (a
  /// template's pattern); null when none.
  const clang::FunctionDecl *function(llvm::StringRef Name) const;
  /// The first variable or parameter of the main file named \p Name.
  const clang::VarDecl *variable(llvm::StringRef Name) const;
  /// The lambdas of the main file, as written, in source order.
  std::vector<const clang::LambdaExpr *> lambdas() const;
  /// The `__device(hpp)` functions of the main file, as written, in source
  /// order.
  std::vector<const clang::FunctionDecl *> deviceFunctions() const;
  /// The `__device(hpp)` lambdas of the main file that are not inside
  /// another device function or lambda, as written, in source order.
  std::vector<const clang::LambdaExpr *> outermostDeviceLambdas() const;

  /// The main-file offset of the \p Nth (0-based) occurrence of \p Needle;
  /// fails the test and returns 0 when there is none.
  unsigned offsetOf(llvm::StringRef Needle, unsigned Nth = 0) const;
  /// The location of offsetOf(\p Needle, \p Nth).
  clang::SourceLocation locationOf(llvm::StringRef Needle,
                                   unsigned Nth = 0) const;
  /// The outermost expression (as written, implicit casts included) whose
  /// text is exactly the \p Nth occurrence of \p Needle; null when none.
  const clang::Expr *exprAt(llvm::StringRef Needle, unsigned Nth = 0) const;
  /// "line:column" of \p Loc's expansion in the main file; "" when \p Loc
  /// is invalid or elsewhere. Tests compare locations so, for messages a
  /// reader understands.
  std::string lineColumn(clang::SourceLocation Loc) const;
  /// lineColumn(locationOf(\p Needle, \p Nth)).
  std::string positionOf(llvm::StringRef Needle, unsigned Nth = 0) const;

  /// The declarations of the main file (the traversal scope).
  const std::vector<clang::Decl *> &mainFileDecls() const { return Decls; }

private:
  ParsedSource();
  friend class KeepParsed;
  static std::unique_ptr<ParsedSource>
  parseAs(llvm::StringRef Code,
          llvm::ArrayRef<std::pair<std::string, std::string>> Files,
          bool Cuda);

  llvm::IntrusiveRefCntPtr<clang::FileManager> Files;
  std::string Printed;
  std::unique_ptr<llvm::raw_string_ostream> PrintedStream;
  std::unique_ptr<clang::DiagnosticConsumer> Printer;
  std::unique_ptr<clang::CompilerInstance> Compiler;
  std::unique_ptr<clang::FrontendAction> Action;
  std::unique_ptr<LineDirectives> Lines;
  std::vector<clang::Decl *> Decls;
  bool Parsed = false;
};

/// True when \p TU parsed without errors; otherwise a test failure that
/// shows clang's diagnostics, and false (a fixture's parse step).
bool parsed(const ParsedSource &TU);

} // namespace test
} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_UNITTESTS_ANALYSISTESTSUPPORT_H
