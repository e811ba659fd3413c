//===- TemplateContext.cpp - Where an outlined kernel goes ----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Outline/TemplateContext.h"
#include "Dialect/Channels.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/Tasks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RawCommentList.h"

using namespace clang;

namespace hpp {
namespace rewrite {

TemplateContext::TemplateContext(const FunctionDecl *F, const LambdaExpr *LE)
    : F(F), LE(LE) {
  std::vector<const TemplateParameterList *> Lists;
  const DeclContext *Start = F;
  if (!Start)
    Start = LE->getLambdaClass()->getDeclContext();
  for (const DeclContext *DC = Start; DC && !DC->isFileContext();
       DC = DC->getParent()) {
    const TemplateParameterList *L = nullptr;
    // A generic lambda's `auto`s: the captures typed with them become the
    // kernel's own template parameters, set at the launch.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(DC);
        MD && MD->getParent()->isLambda())
      continue;
    if (const auto *FD = dyn_cast<FunctionDecl>(DC)) {
      if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate())
        L = FT->getTemplateParameters();
    } else if (const auto *PS =
                   dyn_cast<ClassTemplatePartialSpecializationDecl>(DC)) {
      L = PS->getTemplateParameters();
    } else if (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) {
      if (const ClassTemplateDecl *CT = RD->getDescribedClassTemplate())
        L = CT->getTemplateParameters();
    }
    if (L)
      Lists.insert(Lists.begin(), L);
  }
  for (const TemplateParameterList *L : Lists)
    for (const NamedDecl *P : *L)
      Params.push_back(P);
}

bool TemplateContext::ok(OutlineError &Err) const {
  for (const NamedDecl *P : Params)
    if (P->getName().empty()) {
      Err = {P->getLocation(), "cannot outline: the enclosing template has an "
                               "unnamed parameter; name it"};
      return false;
    }
  return true;
}

/// \p Leading and \p Extra, comma-separated.
static std::string leadingList(llvm::StringRef Leading,
                               llvm::ArrayRef<std::string> Extra) {
  std::string S = Leading.str();
  for (const std::string &E : Extra)
    S += (S.empty() ? "" : ", ") + E;
  return S;
}

std::string TemplateContext::header(llvm::StringRef Leading,
                                    llvm::ArrayRef<std::string> Extra) const {
  std::string Lead = leadingList(Leading, Extra);
  if (Params.empty() && Lead.empty())
    return "";
  const ASTContext &Ctx = LE->getLambdaClass()->getASTContext();
  std::string S = "template <" + Lead;
  for (size_t I = 0; I < Params.size(); ++I) {
    const NamedDecl *P = Params[I];
    // Up to the parameter's name: default arguments are not repeated.
    SourceRange R(P->getBeginLoc(), P->getLocation());
    if (I || !Lead.empty())
      S += ", ";
    S += sourceText(CharSourceRange::getTokenRange(R), Ctx.getSourceManager(),
                    Ctx.getLangOpts());
  }
  return S + ">\n";
}

std::string
TemplateContext::arguments(llvm::StringRef Leading,
                           llvm::ArrayRef<std::string> Extra) const {
  std::string Lead = leadingList(Leading, Extra);
  if (Params.empty() && Lead.empty())
    return "";
  std::string S = "<" + Lead;
  for (size_t I = 0; I < Params.size(); ++I) {
    if (I || !Lead.empty())
      S += ", ";
    S += Params[I]->getNameAsString();
    if (Params[I]->isParameterPack())
      S += "...";
  }
  return S + ">";
}

/// The declaration at namespace scope whose text holds \p S, found through
/// the parent map (a lambda at namespace or class scope has no enclosing
/// function).
static const Decl *topLevelDecl(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *D = P.get<Decl>()) {
      // A lambda's closure type and call operator lie in its context, not
      // at namespace scope in the text.
      const auto *RD = dyn_cast<CXXRecordDecl>(D);
      if (const auto *MD = dyn_cast<CXXMethodDecl>(D))
        RD = MD->getParent();
      // A linkage block (`extern "C++" { ... }`) is namespace scope.
      if (!(RD && RD->isLambda()) &&
          D->getLexicalDeclContext()->getRedeclContext()->isFileContext())
        return D;
      if (isa<TranslationUnitDecl>(D))
        return nullptr;
    }
    Parents = Ctx.getParents(P);
  }
  return nullptr;
}

/// The construct whose body \p LE is, as messages name it: the first call
/// or Task construction (or variable of a dependent Task type) holding it.
static llvm::StringRef constructName(ASTContext &Ctx, const LambdaExpr *LE) {
  DynTypedNodeList Parents = Ctx.getParents(*LE);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *Call = P.get<CallExpr>())
      return channelMemberObject(Call, "executeWith") ? "Channel consumer"
                                                      : "parallelFor";
    if (const auto *E = P.get<Expr>()) {
      if ((isa<CXXConstructExpr>(E) || isa<CXXUnresolvedConstructExpr>(E)) &&
          taskTypeArgs(E->getType()))
        return "Task";
    } else if (const auto *VD = P.get<VarDecl>()) {
      return taskTypeArgs(VD->getType()) ? "Task" : "parallelFor";
    } else {
      break; // A statement or declaration that is no construct.
    }
    Parents = Ctx.getParents(P);
  }
  return "parallelFor";
}

SourceLocation TemplateContext::insertionPoint(ASTContext &Ctx,
                                               OutlineError &Err) const {
  const Decl *Top = F ? static_cast<const Decl *>(F) : topLevelDecl(Ctx, LE);
  if (!Top) {
    Err = {LE->getBeginLoc(), ("cannot outline: no declaration at namespace "
                               "scope holds this " +
                               constructName(Ctx, LE))
                                  .str()};
    return SourceLocation();
  }
  // Inside a linkage block, the kernel goes before the declaration in the
  // block: what the block declares before it is visible there.
  while (!Top->getLexicalDeclContext()->getRedeclContext()->isFileContext())
    Top = cast<Decl>(Top->getLexicalDeclContext());
  if (const auto *FD = dyn_cast<FunctionDecl>(Top))
    if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate())
      Top = FT;
  if (const auto *RD = dyn_cast<CXXRecordDecl>(Top))
    if (const ClassTemplateDecl *CT = RD->getDescribedClassTemplate())
      Top = CT;
  if (const auto *VD = dyn_cast<VarDecl>(Top)) {
    if (const VarTemplateDecl *VT = VD->getDescribedVarTemplate())
      Top = VT;
  }
  if (isa<VarTemplateDecl>(Top) ||
      isa<VarTemplatePartialSpecializationDecl>(Top)) {
    Err = {LE->getBeginLoc(), ("cannot outline: a " + constructName(Ctx, LE) +
                               " in a variable template's initialiser; call "
                               "it from a function")
                                  .str()};
    return SourceLocation();
  }
  SourceLocation Loc = Top->getBeginLoc();
  if (const RawComment *C = Ctx.getRawCommentForDeclNoCache(Top))
    Loc = C->getBeginLoc();
  return Ctx.getSourceManager().getExpansionLoc(Loc);
}

} // namespace rewrite
} // namespace hpp
