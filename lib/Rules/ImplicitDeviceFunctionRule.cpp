//===- ImplicitDeviceFunctionRule.cpp -------------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/ImplicitDeviceFunctionRule.h"
#include "Core/DeviceCallGraph.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

void ImplicitDeviceFunctionRule::onEndOfTranslationUnit(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  llvm::DenseSet<unsigned> Done;
  for (const FunctionDecl *F : Ctx.deviceGraph().functions()) {
    if (DeviceCallGraph::classify(F, SM) != CalleeKind::Implicit)
      continue;
    if (const auto *M = dyn_cast<CXXMethodDecl>(F))
      if (M->getParent()->isLambda())
        continue; // Lambdas in device code are device code already.
    const FunctionDecl *Pattern = F->getTemplateInstantiationPattern();
    if (!Pattern)
      Pattern = F;
    const char *Qualifiers = Ctx.deviceGraph().isDeviceOnly(F)
                                 ? "__device__ "
                                 : "__host__ __device__ ";
    for (const FunctionDecl *R : Pattern->redecls()) {
      SourceLocation Loc = R->getInnerLocStart();
      if (R->isImplicit() || Loc.isMacroID() || !SM.isWrittenInMainFile(Loc))
        continue;
      if (Done.insert(Loc.getRawEncoding()).second)
        Ctx.Edits.insert(Loc, Qualifiers, Name);
    }
  }
}

} // namespace rewrite
} // namespace hpp
