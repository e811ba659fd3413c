//===- CudaUnsupportedCheck.cpp - CUDA that port mode refuses -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/CudaUnsupportedCheck.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/LaneMask.h"
#include "Framework/RewriteScope.h"

#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {
const llvm::StringRef Names[] = {
#define HPP_CUDA_UNSUPPORTED(Name, Instead) #Name,
#include "Dialect/CudaUnsupported.def"
};

const llvm::StringRef CgNames[] = {
#define HPP_CUDA_UNSUPPORTED_CG(Name, Instead) #Name,
#include "Dialect/CudaUnsupported.def"
};

/// What to write instead of the function \p Name of the table.
llvm::StringRef insteadOf(llvm::StringRef Name) {
  return llvm::StringSwitch<llvm::StringRef>(Name)
#define HPP_CUDA_UNSUPPORTED(Name, Instead) .Case(#Name, Instead)
#define HPP_CUDA_UNSUPPORTED_CG(Name, Instead) .Case(#Name, Instead)
#include "Dialect/CudaUnsupported.def"
      .Default("");
}
} // namespace

void CudaUnsupportedCheck::registerMatchers(MatchFinder &Finder) {
  // As spelled: no instantiation (and no isInTemplateInstantiation(),
  // whose hasAncestor would build the parent map of the whole AST).
  Finder.addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               callExpr(globalCallTo(Names), isExpansionInRewrittenFile())),
      this);
  // Cooperative groups' functions (in cooperative_groups or the versioned
  // namespace it imports: run() checks); of tiled_partition, the form with
  // the size as its second argument only.
  Finder.addMatcher(
      traverse(
          TK_IgnoreUnlessSpelledInSource,
          callExpr(callee(functionDecl(hasAnyName(CgNames),
                                       unless(allOf(hasName("tiled_partition"),
                                                    parameterCountIs(1))))
                              .bind("cg")),
                   isExpansionInRewrittenFile())
              .bind("call")),
      this);
}

void CudaUnsupportedCheck::run(const MatchFinder::MatchResult &R) {
  if (!Ctx.CI.getLangOpts().CUDA)
    return;
  const SourceManager &SM = *R.SourceManager;
  const auto *Call = R.Nodes.getNodeAs<CallExpr>("call");
  llvm::StringRef Name = globalCalleeName(Call);
  if (const auto *Cg = R.Nodes.getNodeAs<FunctionDecl>("cg")) {
    if (!llvm::StringRef(Cg->getQualifiedNameAsString())
             .starts_with("cooperative_groups::"))
      return;
    Name = Cg->getName();
  }
  if (Name.empty())
    if (const auto *Callee = R.Nodes.getNodeAs<Expr>("callee"))
      if (const auto *Lookup =
              dyn_cast<OverloadExpr>(Callee->IgnoreParenImpCasts()))
        Name = Lookup->getName().getAsIdentifierInfo()
                   ? Lookup->getName().getAsIdentifierInfo()->getName()
                   : "";
  error(SM.getExpansionLoc(Call->getBeginLoc()),
        ("'" + Name + "' cannot be ported: " + insteadOf(Name)).str());
}

} // namespace rewrite
} // namespace hpp
