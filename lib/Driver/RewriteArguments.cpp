//===- RewriteArguments.cpp - The flags every source is parsed with -------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements rewriteArguments (hpp-rewrite/RewriteArguments.h) and
/// addRewriteArguments (hpp-rewrite/Driver.h): the flags the tool adds to
/// every compile command, and those it drops.
///
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/RewriteArguments.h"
#include "hpp-rewrite/Driver.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

namespace hpp {
namespace rewrite {

using llvm::StringRef;

RewriteArguments rewriteArguments(const HeaderPaths &Paths) {
  return {{"-std=c++17"},
          {"-D__HPP_REWRITE__=1", "-resource-dir", Paths.ResourceDir,
           "-isystem", Paths.DialectInclude, "-isystem", Paths.RuntimeInclude,
           "-fsyntax-only", "-Wno-unknown-attributes"}};
}

void addRewriteArguments(clang::tooling::ClangTool &Tool,
                         const HeaderPaths &Paths) {
  using namespace clang::tooling;
  const RewriteArguments Arguments = rewriteArguments(Paths);
  // Dropped flags: GPU-compiler options that the C++ parse cannot take.
  Tool.appendArgumentsAdjuster([](const CommandLineArguments &Args, StringRef) {
    CommandLineArguments Out;
    for (const std::string &A : Args)
      if (!StringRef(A).starts_with("--offload-arch") &&
          !StringRef(A).starts_with("--cuda-") &&
          !StringRef(A).starts_with("-arch="))
        Out.push_back(A);
    return Out;
  });
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      Arguments.Leading, ArgumentInsertPosition::BEGIN));
  // A `.cu` or `.hip` source (the tool's own output, or dialect code named
  // so) is parsed as C++ against the runtime's CPU view, which needs no GPU
  // SDK; an explicit `-x` wins.
  Tool.appendArgumentsAdjuster(
      [](const CommandLineArguments &Args, StringRef File) {
        StringRef Ext = llvm::sys::path::extension(File);
        if (!(Ext == ".cu" || Ext == ".cuh" || Ext == ".hip") ||
            llvm::any_of(Args, [](const std::string &A) {
              return StringRef(A).starts_with("-x");
            }))
          return Args;
        CommandLineArguments Out(Args.begin(), Args.begin() + 1);
        Out.insert(Out.end(), {"-x", "c++"});
        Out.insert(Out.end(), Args.begin() + 1, Args.end());
        return Out;
      });
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      Arguments.Trailing, ArgumentInsertPosition::END));
}

} // namespace rewrite
} // namespace hpp
