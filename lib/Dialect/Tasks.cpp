//===- Tasks.cpp - hpp::Task constructions --------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Tasks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace hpp {
namespace rewrite {

/// The template arguments of \p T if it names the class template
/// `::hpp::<Name>`: as written when the type is sugared or dependent,
/// otherwise the specialization's.
static std::optional<llvm::ArrayRef<TemplateArgument>>
dialectTemplateArgs(QualType T, llvm::StringRef Name) {
  if (T.isNull())
    return std::nullopt;
  T = T.getNonReferenceType();
  if (const auto *TST = T->getAs<TemplateSpecializationType>()) {
    const TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl();
    if (!TD || TD->getQualifiedNameAsString() != ("hpp::" + Name).str())
      return std::nullopt;
    return TST->template_arguments();
  }
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || Spec->getSpecializedTemplate()->getQualifiedNameAsString() !=
                   ("hpp::" + Name).str())
    return std::nullopt;
  return Spec->getTemplateArgs().asArray();
}

std::optional<TaskTypeArgs> taskTypeArgs(QualType T) {
  auto Args = dialectTemplateArgs(T, "Task");
  if (!Args || Args->size() != 2 ||
      (*Args)[0].getKind() != TemplateArgument::Type ||
      (*Args)[1].getKind() != TemplateArgument::Type)
    return std::nullopt;
  return TaskTypeArgs{(*Args)[0].getAsType(), (*Args)[1].getAsType()};
}

std::optional<std::pair<int, int>> indexShape(QualType T,
                                              const ASTContext &Ctx) {
  if (T.isNull())
    return std::nullopt;
  // A concrete type: the specialization's arguments, integers.
  if (!T->isDependentType())
    T = T.getCanonicalType();
  auto Args = dialectTemplateArgs(T, "Index");
  if (!Args || Args->empty())
    return std::nullopt;
  int Shape[2] = {0, 0};
  for (size_t I = 0; I < Args->size() && I < 2; ++I) {
    const TemplateArgument &A = (*Args)[I];
    if (A.getKind() == TemplateArgument::Integral) {
      Shape[I] = int(A.getAsIntegral().getExtValue());
      continue;
    }
    // Written arguments of a dependent type are expressions (`Index<1>`).
    if (A.getKind() != TemplateArgument::Expression ||
        A.getAsExpr()->isValueDependent())
      return std::nullopt;
    std::optional<llvm::APSInt> V = A.getAsExpr()->getIntegerConstantExpr(Ctx);
    if (!V)
      return std::nullopt;
    Shape[I] = int(V->getExtValue());
  }
  return std::make_pair(Shape[0], Shape[1]);
}

llvm::SmallVector<const Expr *, 2> taskArguments(const Expr *Site) {
  llvm::SmallVector<const Expr *, 2> Out;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Site))
    Out.append(CE->arg_begin(), CE->arg_end());
  else if (const auto *UE = dyn_cast<CXXUnresolvedConstructExpr>(Site))
    Out.append(UE->arg_begin(), UE->arg_end());
  else if (const auto *PL = dyn_cast<ParenListExpr>(Site))
    for (unsigned I = 0; I < PL->getNumExprs(); ++I)
      Out.push_back(PL->getExpr(I));
  else if (const auto *IL = dyn_cast<InitListExpr>(Site))
    Out.append(IL->inits().begin(), IL->inits().end());
  // Default arguments are not written.
  while (!Out.empty() && isa<CXXDefaultArgExpr>(Out.back()))
    Out.pop_back();
  return Out;
}

bool isTaskKernelCall(const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreUnlessSpelledInSource();
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call)
    return false;
  if (const auto *FD = Call->getDirectCallee())
    return FD->getQualifiedNameAsString() == "hpp::detail::taskKernel";
  // In a template: an unresolved call.
  if (const auto *UL = dyn_cast<UnresolvedLookupExpr>(
          Call->getCallee()->IgnoreUnlessSpelledInSource()))
    for (const NamedDecl *D : UL->decls())
      if (D->getQualifiedNameAsString() == "hpp::detail::taskKernel")
        return true;
  return false;
}

} // namespace rewrite
} // namespace hpp
