//===- CudaIncludeRule.cpp - CUDA headers -> <hpp/cuda_api.h> -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/CudaIncludeRule.h"
#include "Framework/RewriteScope.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
/// The runtime's header that stands for the CUDA header \p Name, or empty.
llvm::StringRef replacementOf(llvm::StringRef Name) {
  return llvm::StringSwitch<llvm::StringRef>(Name)
#define HPP_CUDA_HEADER(Header, Replacement) .Case(Header, Replacement)
#include "Dialect/CudaHeaders.def"
      .Default("");
}

/// Watches the #include directives of the rewritten files.
class CudaIncludeCallbacks : public PPCallbacks {
public:
  CudaIncludeCallbacks(const SourceManager &SM, EditCollector &Edits,
                       StringRef Rule, bool &MainIncludes)
      : SM(SM), Edits(Edits), Rule(Rule), MainIncludes(MainIncludes) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef Name,
                          bool, CharSourceRange FilenameRange,
                          OptionalFileEntryRef, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    llvm::StringRef Replacement = replacementOf(Name);
    if (Replacement.empty() || SM.isInSystemHeader(HashLoc) ||
        !isWrittenInRewrittenFile(SM, HashLoc))
      return;
    Edits.replace(FilenameRange, ("<" + Replacement + ">").str(), Rule);
    MainIncludes |= SM.isWrittenInMainFile(HashLoc);
  }

private:
  const SourceManager &SM;
  EditCollector &Edits;
  StringRef Rule;
  bool &MainIncludes;
};
} // namespace

void CudaIncludeRule::registerPPCallbacks() {
  if (!Ctx.CI.getLangOpts().CUDA)
    return;
  Ctx.CI.getPreprocessor().addPPCallbacks(
      std::make_unique<CudaIncludeCallbacks>(Ctx.CI.getSourceManager(),
                                             Ctx.Edits, Name, MainIncludes));
}

void CudaIncludeRule::onEndOfTranslationUnit(ASTContext &) {
  // A CUDA source includes cuda_runtime.h without saying so (the driver's
  // `-include`, as nvcc's); a host source of a CUDA project, parsed as
  // CUDA too, does not.
  const std::vector<std::string> &Forced =
      Ctx.CI.getPreprocessorOpts().Includes;
  if (!Ctx.CI.getLangOpts().CUDA || MainIncludes ||
      !llvm::is_contained(Forced, "cuda_runtime.h"))
    return;
  const SourceManager &SM = Ctx.CI.getSourceManager();
  Ctx.Edits.insert(SM.getLocForStartOfFile(SM.getMainFileID()),
                   "#include <hpp/cuda_api.h>\n", Name);
}

} // namespace rewrite
} // namespace hpp
