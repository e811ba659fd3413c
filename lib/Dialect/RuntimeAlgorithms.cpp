//===- RuntimeAlgorithms.cpp ----------------------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Dialect/RuntimeAlgorithms.h"
#include "Dialect/DeviceCode.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace hpp {
namespace rewrite {

/// The functor argument's index of the kernel named \p Name; -2 when it
/// is no kernel.
static int functorIndex(llvm::StringRef Name) {
  return llvm::StringSwitch<int>(Name)
#define HPP_RUNTIME_ALGORITHM(Kernel, FunctorArg) .Case(#Kernel, FunctorArg)
#include "Dialect/RuntimeAlgorithms.def"
      .Default(-2);
}

bool isRuntimeAlgorithm(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || isa<CXXMethodDecl>(FD))
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(FD->getDeclContext());
  return NS && NS->getName() == "hpp" && NS->getParent()->isTranslationUnit() &&
         isDialectAPI(FD) && functorIndex(FD->getName()) != -2;
}

const Expr *algorithmFunctor(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!isRuntimeAlgorithm(FD))
    return nullptr;
  int Index = functorIndex(FD->getName());
  if (Index < 0 || unsigned(Index) >= Call->getNumArgs())
    return nullptr;
  const Expr *Arg = Call->getArg(Index);
  if (isa<CXXDefaultArgExpr>(Arg))
    return nullptr; // The default: hpp::Plus, host and device code.
  return Arg->IgnoreImplicit()->IgnoreParens();
}

llvm::SmallVector<const FunctionDecl *, 2>
functorCallOperators(const Expr *Functor) {
  llvm::SmallVector<const FunctionDecl *, 2> Out;
  const CXXRecordDecl *RD = Functor->getType()->getAsCXXRecordDecl();
  if (!RD || RD->isLambda() || !RD->hasDefinition())
    return Out;
  for (const Decl *D : RD->decls()) {
    if (const auto *M = dyn_cast<CXXMethodDecl>(D)) {
      if (M->getOverloadedOperator() == OO_Call && M->hasBody())
        Out.push_back(M);
    } else if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D)) {
      if (FT->getTemplatedDecl()->getOverloadedOperator() != OO_Call)
        continue;
      for (const FunctionDecl *Spec : FT->specializations())
        if (Spec->hasBody())
          Out.push_back(Spec);
    }
  }
  return Out;
}

} // namespace rewrite
} // namespace hpp
