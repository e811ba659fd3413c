//===- Collectives.cpp - The dialect's group and warp collectives ---------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Collectives.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

#include <vector>

using namespace clang;

namespace hpp {
namespace rewrite {

static CollectiveScope scopeOf(StringRef Name) {
  return llvm::StringSwitch<CollectiveScope>(Name)
#define HPP_DIALECT_COLLECTIVE(N, Scope) .Case(#N, CollectiveScope::Scope)
#include "Dialect/Collectives.def"
      .Default(CollectiveScope::None);
}

/// The names of the rows of \p Rows in \p Scope.
template <class RowT, size_t N>
static std::vector<StringRef> pick(const RowT (&Rows)[N],
                                   CollectiveScope Scope) {
  std::vector<StringRef> Names;
  for (const RowT &R : Rows)
    if (R.Scope == Scope)
      Names.push_back(R.Qualified);
  return Names;
}

CollectiveScope dialectCollective(const NamedDecl *D) {
  if (!D || !D->getIdentifier() || !isa<FunctionDecl, FunctionTemplateDecl>(D))
    return CollectiveScope::None;
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext());
  if (!NS || NS->getName() != "hpp" ||
      !NS->getParent()->getRedeclContext()->isTranslationUnit())
    return CollectiveScope::None;
  return scopeOf(D->getName());
}

CollectiveScope dialectCollective(const CallExpr *CE, StringRef *Name) {
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  const NamedDecl *D = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    D = DRE->getDecl();
  else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    D = ULE->getNumDecls() ? (*ULE->decls_begin())->getUnderlyingDecl()
                           : nullptr;
  if (const auto *FD = dyn_cast_or_null<FunctionDecl>(D))
    if (const FunctionTemplateDecl *T = FD->getPrimaryTemplate())
      D = T;
  CollectiveScope S = dialectCollective(D);
  if (S != CollectiveScope::None && Name)
    *Name = D->getName();
  return S;
}

ArrayRef<StringRef> collectiveNames(CollectiveScope Scope) {
  struct Row {
    StringRef Qualified;
    CollectiveScope Scope;
  };
  static const Row Rows[] = {
#define HPP_DIALECT_COLLECTIVE(N, S) {"::hpp::" #N, CollectiveScope::S},
#include "Dialect/Collectives.def"
  };
  static const std::vector<StringRef> ByScope[] = {
      {},
      pick(Rows, CollectiveScope::Group),
      pick(Rows, CollectiveScope::Warp)};
  return ByScope[static_cast<int>(Scope)];
}

} // namespace rewrite
} // namespace hpp
