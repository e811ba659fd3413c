//===- hpp-rewrite/Driver.h - Rewriting whole files -------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The library entry point the hpp-rewrite tool calls: parse each source
/// with the dialect headers, run the rules, and return the rewritten text
/// (or nothing, when the translation unit had errors).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_DRIVER_H
#define HPP_REWRITE_DRIVER_H

#include "hpp-rewrite/RuleRegistry.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

/// Where the tool finds the headers it parses sources with.
struct HeaderPaths {
  std::string ResourceDir;    ///< clang's builtin headers
  std::string DialectInclude; ///< include/ (hpp/hpp.h)
  std::string RuntimeInclude; ///< runtime/ (hpp/runtime.h)
};

/// Adds the flags hpp-rewrite always parses with (dialect macro, include
/// paths, C++17, syntax only) to \p Tool.
void addRewriteArguments(clang::tooling::ClangTool &Tool,
                         const HeaderPaths &Paths);

/// The outcome of rewriting one source.
struct RewriteOutput {
  bool Ok = false;  ///< parsed and rewritten without errors
  std::string Text; ///< the rewritten main file, when Ok
  /// Every file the parse read (the source, its headers, the dialect's
  /// headers), sorted, when Ok: what a build must re-run the rewrite for.
  std::vector<std::string> Dependencies;
};

/// Runs \p Tool with \p Factory, its diagnostics printed to stderr as
/// clang prints them; false when anything reported an error, the compiler
/// driver included (ClangTool::run itself lets some driver errors pass,
/// such as a missing ROCm device library under `-x hip`).
bool runRewriteTool(clang::tooling::ClangTool &Tool,
                    clang::tooling::FrontendActionFactory &Factory);

/// A FrontendActionFactory that rewrites the source it is run on into
/// \p Output (run it on one source at a time), with the warning checks
/// \p Selection enables and the warnings it makes errors.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newRewriteActionFactory(RewriteOutput &Output,
                        const RuleSelection &Selection = RuleSelection());

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_DRIVER_H
