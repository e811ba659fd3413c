//===- KernelScope.cpp - What an outlined kernel can name -----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Outline/KernelScope.h"
#include "Analysis/WidthUses.h"
#include "Dialect/DeviceCode.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/QualTypeNames.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace clang;

namespace hpp {
namespace rewrite {

/// True when \p D or a class enclosing it is a private or protected member.
static bool nonPublic(const Decl *D) {
  for (; D && D->getDeclContext()->isRecord();
       D = cast<Decl>(D->getDeclContext())) {
    AccessSpecifier A = D->getAccess();
    if (A == AS_private || A == AS_protected)
      return true;
  }
  return false;
}

static bool isAlias(const NamedDecl *D) {
  return isa<TypedefNameDecl>(D) || isa<UsingShadowDecl>(D) ||
         isa<TypeAliasTemplateDecl>(D);
}

/// The reach of one declaration a type names.
static TypeReach reachOf(const NamedDecl *D) {
  const auto *RD = dyn_cast<CXXRecordDecl>(D);
  if (RD && RD->isLambda())
    return TypeReach::Local;
  if (D->getParentFunctionOrMethod())
    return isAlias(D) && D->getDeclContext()->isFunctionOrMethod()
               ? TypeReach::LocalAlias
               : TypeReach::Local;
  if (!D->getDeclContext()->isRecord())
    return TypeReach::Namespace;
  return nonPublic(D) ? TypeReach::PrivateMember : TypeReach::Member;
}

namespace {
/// Collects the worst reach over the declarations a type names.
class ReachVisitor : public DynamicASTVisitor {
public:
  TypeReachResult R;

  void note(const NamedDecl *D) {
    if (!D)
      return;
    TypeReach Reach = reachOf(D);
    if (int(Reach) > int(R.Reach))
      R = {Reach, D};
  }
  bool VisitTypedefType(TypedefType *T) override {
    note(T->getDecl());
    return true;
  }
  bool VisitUsingType(UsingType *T) override {
    note(T->getFoundDecl());
    return true;
  }
  bool VisitInjectedClassNameType(InjectedClassNameType *T) override {
    note(T->getDecl());
    return true;
  }
  bool VisitTagType(TagType *T) override {
    note(T->getDecl());
    // A specialisation's arguments are not part of the type's sugar.
    if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(T->getDecl()))
      for (const TemplateArgument &A : S->getTemplateArgs().asArray())
        if (A.getKind() == TemplateArgument::Type)
          TraverseType(A.getAsType());
    return true;
  }
  bool VisitTemplateSpecializationType(TemplateSpecializationType *T) override {
    note(T->getTemplateName().getAsTemplateDecl());
    return true;
  }
  bool VisitTemplateTypeParmType(TemplateTypeParmType *T) override {
    // A generic lambda's `auto` (or a parameter the type no longer names):
    // no template of the kernel's place declares it.
    const TemplateTypeParmDecl *D = T->getDecl();
    const DeclContext *DC = D ? D->getDeclContext() : nullptr;
    const auto *RD = DC ? dyn_cast<CXXRecordDecl>(DC) : nullptr;
    const auto *MD = DC ? dyn_cast<CXXMethodDecl>(DC) : nullptr;
    if (!D || D->isImplicit() || (RD && RD->isLambda()) ||
        (MD && MD->getParent()->isLambda()))
      noteReach(TypeReach::LaunchOnly, D);
    return true;
  }
  bool VisitDecltypeType(DecltypeType *T) override {
    // `decltype(v)` of a function-local v: its type, when known here.
    noteReach(T->isDependentType() ? TypeReach::LaunchOnly
                                   : TypeReach::LocalAlias,
              nullptr);
    return true;
  }

private:
  void noteReach(TypeReach Reach, const NamedDecl *D) {
    if (int(Reach) > int(R.Reach))
      R = {Reach, D};
  }
};
} // namespace

TypeReachResult typeReach(QualType T) {
  ReachVisitor V;
  V.TraverseType(T);
  return V.R;
}

QualType withoutLocalAliases(QualType T, const ASTContext &Ctx) {
  if (typeReach(T).Reach != TypeReach::LocalAlias)
    return T;
  // One step at a time, so that a dependent type keeps the names of its
  // template parameters (`typename Traits<T>::value_type`).
  QualType D = T;
  while (typeReach(D).Reach == TypeReach::LocalAlias) {
    QualType Next = D.getSingleStepDesugaredType(Ctx);
    if (Next == D)
      break;
    D = Next;
  }
  if (typeReach(D).Reach != TypeReach::LocalAlias)
    return D;
  return T->isDependentType() ? T : T.getCanonicalType();
}

/// True when \p D is declared inside the lambda \p LE.
static bool insideLambda(const Decl *D, const LambdaExpr *LE) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (DC == LE->getCallOperator() || DC == LE->getLambdaClass())
      return true;
  return false;
}

/// A static data member the kernel can copy by value.
static bool isMemberConstant(const VarDecl *VD) {
  if (!VD->isStaticDataMember() || VD->getType()->isReferenceType())
    return false;
  QualType T = VD->getType();
  if (!(T->isIntegerType() || T->isBooleanType() || T->isRealFloatingType()) ||
      T->isEnumeralType())
    return false;
  const APValue *V = VD->evaluateValue();
  return V && (V->isInt() || V->isFloat());
}

namespace {
/// Finds the names of a body that the kernel must qualify or cannot reach.
class ScopeVisitor : public DynamicASTVisitor {
public:
  ScopeVisitor(ASTContext &Ctx, const LambdaExpr *LE) : Ctx(Ctx), LE(LE) {}

  std::vector<ScopedUse> Uses;
  std::vector<const VarDecl *> Constants;

  // Qualified names: the first component of a nested-name-specifier is the
  // only one that is written without a qualifier.
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc N) override {
    if (N && N.getPrefix())
      Qualified.insert(N.getLocalBeginLoc());
    else if (N)
      NNSStarts.insert(N.getLocalBeginLoc());
    return DynamicASTVisitor::TraverseNestedNameSpecifierLoc(N);
  }
  bool TraverseElaboratedTypeLoc(ElaboratedTypeLoc TL) override {
    if (TL.getQualifierLoc())
      Qualified.insert(TL.getNamedTypeLoc().getBeginLoc());
    return DynamicASTVisitor::TraverseElaboratedTypeLoc(TL);
  }

  bool VisitTagTypeLoc(TagTypeLoc TL) override {
    typeUse(TL.getDecl(), TL.getBeginLoc());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) override {
    typeUse(TL.getTypedefNameDecl(), TL.getBeginLoc());
    return true;
  }
  bool VisitTemplateSpecializationTypeLoc(
      TemplateSpecializationTypeLoc TL) override {
    if (const TemplateDecl *TD =
            TL.getTypePtr()->getTemplateName().getAsTemplateDecl())
      typeUse(TD, TL.getTemplateNameLoc());
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    const ValueDecl *D = E->getDecl();
    if (insideLambda(D, LE))
      return true;
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
      const auto *ED = cast<EnumDecl>(EC->getDeclContext());
      if (ED->getParentFunctionOrMethod() && !insideLambda(ED, LE))
        add(ScopedUse::LocalType, E->getLocation(), ED, "");
      else if (ED->getDeclContext()->isRecord() && !ED->isScoped())
        member(ED, E->getLocation(), E->hasQualifier(), /*Type=*/false);
      return true;
    }
    const auto *VD = dyn_cast<VarDecl>(D);
    if (VD && VD->isStaticDataMember()) {
      if (!E->hasQualifier() && isMemberConstant(VD)) {
        if (std::find(Constants.begin(), Constants.end(), VD) ==
            Constants.end())
          Constants.push_back(VD);
        return true;
      }
      member(VD, E->getLocation(), E->hasQualifier(), false);
      return true;
    }
    // Static member functions; operators and `&K::f` are left alone.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(D))
      if (MD->isStatic() && !MD->getParent()->isLambda() &&
          MD->getOverloadedOperator() == OO_None)
        member(MD, E->getLocation(), E->hasQualifier(), false);
    return true;
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) override {
    // An unqualified call of a static member in a class template.
    for (const NamedDecl *D : E->decls()) {
      const NamedDecl *U = D->getUnderlyingDecl();
      if (isa<CXXMethodDecl>(U) ||
          (isa<FunctionTemplateDecl>(U) && U->getDeclContext()->isRecord())) {
        member(U, E->getNameLoc(), E->getQualifier() != nullptr, false);
        break;
      }
    }
    return true;
  }
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *E) override {
    if (!E->isImplicitAccess())
      return true;
    bool AllStatic = true;
    for (const NamedDecl *D : E->decls()) {
      const auto *MD = dyn_cast<CXXMethodDecl>(D->getUnderlyingDecl());
      if (const auto *FT =
              dyn_cast<FunctionTemplateDecl>(D->getUnderlyingDecl()))
        MD = dyn_cast<CXXMethodDecl>(FT->getTemplatedDecl());
      AllStatic &= MD && MD->isStatic();
    }
    const NamedDecl *First = *E->decls_begin();
    if (AllStatic)
      member(First->getUnderlyingDecl(), E->getMemberLoc(),
             E->getQualifier() != nullptr, false);
    else
      add(ScopedUse::NonStatic, E->getMemberLoc(), First, "");
    return true;
  }
  bool
  VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) override {
    if (E->isImplicitAccess())
      add(ScopedUse::NonStatic, E->getMemberLoc(), nullptr, "");
    return true;
  }

private:
  void add(ScopedUse::Kind K, SourceLocation Loc, const NamedDecl *D,
           std::string Prefix) {
    Uses.push_back({K, Loc, D, std::move(Prefix)});
  }

  void typeUse(const NamedDecl *D, SourceLocation Loc) {
    if (!D || insideLambda(D, LE))
      return;
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
      if (RD->isLambda())
        return;
      // The class's own name inside it: the class itself.
      if (RD->isInjectedClassName())
        D = RD = cast<CXXRecordDecl>(RD->getDeclContext());
    }
    switch (reachOf(D)) {
    case TypeReach::Namespace:
      return;
    case TypeReach::LocalAlias: {
      // Repeated in the kernel when the type it names can be reached.
      const auto *TD = dyn_cast<TypedefNameDecl>(D);
      if (TD && int(typeReach(withoutLocalAliases(TD->getUnderlyingType(), Ctx))
                        .Reach) >= int(TypeReach::LaunchOnly))
        add(ScopedUse::LocalType, Loc, D, "");
      return;
    }
    case TypeReach::LaunchOnly:
      return;
    case TypeReach::Local:
      add(ScopedUse::LocalType, Loc, D, "");
      return;
    case TypeReach::Member:
    case TypeReach::PrivateMember:
      // `typename` only where a type is expected, not in `Inner::k`.
      member(D, Loc, Qualified.count(Loc) != 0,
             /*Type=*/NNSStarts.count(Loc) == 0);
      return;
    }
  }

  /// A use of class member \p D at \p Loc.
  void member(const NamedDecl *D, SourceLocation Loc, bool IsQualified,
              bool Type) {
    if (insideLambda(D, LE))
      return;
    const auto *Class = dyn_cast<CXXRecordDecl>(D->getDeclContext());
    if (!Class || Class->isLambda())
      return;
    if (nonPublic(D)) {
      add(ScopedUse::NonPublic, Loc, D, "");
      return;
    }
    if (IsQualified)
      return;
    PrintingPolicy Policy(Ctx.getLangOpts());
    Policy.SuppressUnwrittenScope = true;
    std::string Prefix =
        TypeName::getFullyQualifiedName(QualType(Class->getTypeForDecl(), 0),
                                        Ctx, Policy) +
        "::";
    if (Class->isDependentContext()) {
      if (Type)
        Prefix = "typename " + Prefix;
      if (isa<TemplateDecl>(D))
        Prefix += "template ";
    }
    add(ScopedUse::Qualify, Loc, D, Prefix);
  }

  ASTContext &Ctx;
  const LambdaExpr *LE;
  llvm::DenseSet<SourceLocation> Qualified;
  llvm::DenseSet<SourceLocation> NNSStarts;
};
} // namespace

std::vector<ScopedUse> scopedUses(ASTContext &Ctx, const LambdaExpr *LE) {
  ScopeVisitor V(Ctx, LE);
  V.TraverseStmt(LE->getBody());
  return std::move(V.Uses);
}

std::vector<const VarDecl *> memberConstants(const LambdaExpr *LE) {
  ScopeVisitor V(LE->getLambdaClass()->getASTContext(), LE);
  V.TraverseStmt(LE->getBody());
  return std::move(V.Constants);
}

/// Declarations a kernel repeats to keep the body's names.
static bool isRepeatable(const Decl *D) {
  // `using hpp::parallelFor;` names nothing in the output (ParallelForRule
  // removes it).
  if (const auto *UD = dyn_cast<UsingDecl>(D))
    if (UD->getName() == "parallelFor")
      return false;
  return isa<UsingDecl>(D) || isa<UsingDirectiveDecl>(D) ||
         isa<NamespaceAliasDecl>(D) || isa<UsingEnumDecl>(D) ||
         isa<TypedefNameDecl>(D);
}

std::vector<const Decl *> localScopeDecls(ASTContext &Ctx,
                                          const LambdaExpr *LE) {
  std::vector<std::vector<const Decl *>> Levels;
  DynTypedNode Node = DynTypedNode::create(*LE);
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      break;
    const DynTypedNode &P = Parents[0];
    if (const auto *FD = P.get<FunctionDecl>()) {
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (!(MD && MD->getParent()->isLambda()))
        break; // The enclosing function: its scope ends here.
    }
    if (P.get<TranslationUnitDecl>())
      break;
    if (const auto *CS = P.get<CompoundStmt>()) {
      std::vector<const Decl *> Level;
      const Stmt *Child = Node.get<Stmt>();
      for (const Stmt *S : CS->body()) {
        if (S == Child)
          break;
        if (const auto *DS = dyn_cast<DeclStmt>(S))
          for (const Decl *D : DS->decls())
            if (isRepeatable(D))
              Level.push_back(D);
      }
      Levels.push_back(std::move(Level));
    }
    Node = P;
  }
  std::vector<const Decl *> Out;
  for (auto It = Levels.rbegin(); It != Levels.rend(); ++It)
    Out.insert(Out.end(), It->begin(), It->end());
  return Out;
}

bool qualifyScopedNames(ASTContext &Ctx, const LambdaExpr *LE,
                        tooling::Replacements &Edits, OutlineError &Err) {
  const SourceManager &SM = Ctx.getSourceManager();
  const CompoundStmt *Body = LE->getCompoundStmtBody();
  unsigned Start = SM.getFileOffset(SM.getExpansionLoc(Body->getLBracLoc()));
  std::string Path =
      Edits.empty() ? std::string() : Edits.begin()->getFilePath().str();
  for (const ScopedUse &U : scopedUses(Ctx, LE)) {
    std::string What = U.D ? "'" + U.D->getNameAsString() + "'" : "a member";
    switch (U.K) {
    case ScopedUse::NonPublic:
      Err = {U.Loc, "cannot outline: the body uses " + What +
                        ", a private or protected member of '" +
                        cast<NamedDecl>(U.D->getDeclContext())
                            ->getQualifiedNameAsString() +
                        "'; the kernel is a function outside the class and "
                        "cannot access it; make it public, or copy the value "
                        "into a local variable and capture that"};
      return false;
    case ScopedUse::LocalType:
      Err = {U.Loc, "cannot outline: the body uses " + What +
                        ", a type declared in the enclosing function; the "
                        "kernel, at namespace scope, cannot name it (CUDA "
                        "also refuses local types in kernels); declare it at "
                        "namespace scope"};
      return false;
    case ScopedUse::NonStatic:
      Err = {U.Loc, "cannot outline: the body uses " + What +
                        ", a non-static member, through 'this'; copy what it "
                        "needs into local variables and capture those"};
      return false;
    case ScopedUse::Qualify:
      break;
    }
    if (U.Loc.isMacroID()) {
      Err = {SM.getExpansionLoc(U.Loc),
             "cannot outline: the body names class member " + What +
                 " inside a macro, where the kernel cannot qualify it; "
                 "qualify it in the macro"};
      return false;
    }
    tooling::Replacement R(Path, SM.getFileOffset(U.Loc) - Start, 0, U.Prefix);
    if (llvm::Error E = Edits.add(R)) {
      llvm::consumeError(std::move(E));
      Err = {U.Loc, "internal error: cannot qualify " + What +
                        ": another edit changes it"};
      return false;
    }
  }
  return true;
}

std::string localScopeText(ASTContext &Ctx, const LambdaExpr *LE) {
  std::string Out;
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  for (const Decl *D : localScopeDecls(Ctx, LE)) {
    // A declaration that uses the host's width is in a width region
    // (Analysis/WidthRegions.h), which the launch is not in: out of scope
    // there in the output (a kernel that used it would be in the region,
    // which is refused).
    if (!findHostWidthUses(D, Ctx).empty())
      continue;
    if (const auto *TD = dyn_cast<TypedefNameDecl>(D)) {
      // Spelled fully qualified, so that it means the same after the class;
      // an alias of a type the kernel cannot reach is left out (a use of it
      // in the body is an error, see scopedUses).
      QualType U = withoutLocalAliases(TD->getUnderlyingType(), Ctx);
      if (int(typeReach(U).Reach) >= int(TypeReach::LaunchOnly))
        continue;
      Out += "  using " + TD->getNameAsString() + " = " +
             TypeName::getFullyQualifiedName(U, Ctx, Policy) + ";\n";
      continue;
    }
    Out += "  " +
           sourceText(
               Ctx.getSourceManager().getExpansionRange(D->getSourceRange()),
               Ctx.getSourceManager(), Ctx.getLangOpts()) +
           ";\n";
  }
  return Out;
}

const CXXRecordDecl *enclosingClass(const FunctionDecl *F,
                                    const LambdaExpr *LE) {
  const DeclContext *DC =
      F ? F->getLexicalDeclContext() : LE->getLambdaClass()->getDeclContext();
  const CXXRecordDecl *Outer = nullptr;
  while (const auto *RD = dyn_cast_or_null<CXXRecordDecl>(DC)) {
    if (RD->isLambda())
      return nullptr;
    Outer = RD;
    DC = RD->getLexicalDeclContext();
  }
  return Outer && DC && DC->getRedeclContext()->isFileContext() ? Outer
                                                                : nullptr;
}

} // namespace rewrite
} // namespace hpp
