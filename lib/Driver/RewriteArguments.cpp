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

#include <optional>

namespace hpp {
namespace rewrite {

using llvm::StringRef;

RewriteArguments rewriteArguments(const HeaderPaths &Paths) {
  RewriteArguments A{{"-std=c++17"},
                     {"-D__HPP_REWRITE__=1", "-resource-dir", Paths.ResourceDir,
                      "-isystem", Paths.DialectInclude, "-isystem",
                      Paths.RuntimeInclude, "-fsyntax-only",
                      "-Wno-unknown-attributes"}};
  if (isPortMode(Paths))
    // The host side of clang's CUDA front end parses the device code too;
    // the bundled declarations stand for the SDK, whose installation (if
    // any) is never looked at: --cuda-path names a directory that holds
    // none, so every machine parses alike.
    A.Trailing.insert(A.Trailing.end(),
                      {"-isystem", Paths.CudaDecls, "--cuda-host-only",
                       "-nocudainc", "-nocudalib",
                       "--cuda-path=" + Paths.CudaDecls,
                       "-Wno-unknown-cuda-version"});
  return A;
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
  // SDK. In port mode every source is parsed as CUDA (a host source of a
  // CUDA project, which a C++ compiler builds, includes cuda_runtime.h for
  // the runtime API, and only the CUDA front end takes the declarations),
  // and a CUDA source (`.cu`, `.cuh`, or `-x cuda` / nvcc's `-x cu`)
  // includes cuda_runtime.h first, as nvcc makes it do. An explicit `-x`
  // of another language wins.
  const bool Port = isPortMode(Paths);
  Tool.appendArgumentsAdjuster(
      [Port](const CommandLineArguments &Args, StringRef File) {
        StringRef Ext = llvm::sys::path::extension(File);
        std::optional<StringRef> Language;
        for (size_t I = 0; I < Args.size(); ++I) {
          StringRef A = Args[I];
          if (A == "-x" && I + 1 < Args.size())
            Language = Args[I + 1];
          else if (A.starts_with("-x"))
            Language = A.drop_front(2);
        }
        const bool CudaSource =
            Language ? (*Language == "cuda" || *Language == "cu")
                     : (Ext == ".cu" || Ext == ".cuh");
        if (Port && Language && !CudaSource &&
            !(*Language == "c++" || *Language == "c"))
          return Args;
        if (!Port && (Language || !(Ext == ".cu" || Ext == ".cuh" ||
                                    Ext == ".hip")))
          return Args;
        CommandLineArguments Out(Args.begin(), Args.begin() + 1);
        if (Port && !CudaSource)
          Out.insert(Out.end(), {"-x", "cuda"});
        else if (!Language)
          Out.insert(Out.end(), {"-x", Port ? "cuda" : "c++"});
        if (Port && CudaSource)
          Out.insert(Out.end(), {"-include", "cuda_runtime.h"});
        for (size_t I = 1; I < Args.size(); ++I) {
          StringRef A = Args[I];
          bool LanguageOfX = I > 0 && Args[I - 1] == "-x";
          if (Port && !CudaSource && (A == "-x" || A.starts_with("-x") ||
                                      LanguageOfX))
            continue; // The C++ source's own `-x c++`: parsed as CUDA.
          // nvcc's `-x cu` is clang's `-x cuda`.
          Out.push_back(A == "cu" && LanguageOfX ? "cuda"
                        : A == "-xcu"            ? "-xcuda"
                                                 : A.str());
        }
        return Out;
      });
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      Arguments.Trailing, ArgumentInsertPosition::END));
}

} // namespace rewrite
} // namespace hpp
