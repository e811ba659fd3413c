//===- WidthUses.cpp - Where host code uses the mvector width -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Core/WidthUses.h"
#include "Core/DeviceCode.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace {

/// Walks host code, keeping a stack of the contexts it is in.
class WidthUseFinder : public RecursiveASTVisitor<WidthUseFinder> {
  using Base = RecursiveASTVisitor<WidthUseFinder>;

public:
  explicit WidthUseFinder(ASTContext &Ctx)
      : SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()) {}

  std::vector<WidthUse> Uses;

  // Device code is another rule's business.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    if (!getDeviceAnnotation(L->getCallOperator()))
      return Base::TraverseLambdaExpr(L);
    // Its init-captures are evaluated on the host (`[w = MVECTOR_SIZE]`).
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable())
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          if (VD->isInitCapture() && VD->getInit())
            if (!TraverseStmt(const_cast<Expr *>(VD->getInit())))
              return false;
    return true;
  }

  bool TraverseCompoundStmt(CompoundStmt *S) {
    for (Stmt *Child : S->body()) {
      const Expr *SavedCall = CallStmt;
      const Expr *SavedCallee = DispatchCallee;
      findDispatchCandidate(Child);
      if (!TraverseStmt(Child))
        return false;
      CallStmt = SavedCall;
      DispatchCallee = SavedCallee;
    }
    return true;
  }

  // Whose template arguments are being traversed.
  bool TraverseDeclRefExpr(DeclRefExpr *E) {
    return withOwner(E, [&] { return Base::TraverseDeclRefExpr(E); });
  }
  bool TraverseUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
    return withOwner(E, [&] { return Base::TraverseUnresolvedLookupExpr(E); });
  }
  bool TraverseMemberExpr(MemberExpr *E) {
    return withOwner(E, [&] { return Base::TraverseMemberExpr(E); });
  }

  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &A) {
    bool Dispatch = Owner && Owner == DispatchCallee;
    return inContext(Dispatch ? WidthUse::DispatchArg : WidthUse::Constant,
                     [&] { return Base::TraverseTemplateArgumentLoc(A); });
  }

  // Contexts that need a constant expression.
  bool TraverseConstantArrayTypeLoc(ConstantArrayTypeLoc TL) {
    return constant([&] { return Base::TraverseConstantArrayTypeLoc(TL); });
  }
  bool TraverseVariableArrayTypeLoc(VariableArrayTypeLoc TL) {
    return constant([&] { return Base::TraverseVariableArrayTypeLoc(TL); });
  }
  bool TraverseStaticAssertDecl(StaticAssertDecl *D) {
    return constant([&] { return Base::TraverseStaticAssertDecl(D); });
  }
  bool TraverseCaseStmt(CaseStmt *S) {
    if (!constant([&] { return TraverseStmt(S->getLHS()); }))
      return false;
    return TraverseStmt(S->getSubStmt());
  }
  bool TraverseVarDecl(VarDecl *D) {
    if (D->isConstexpr())
      return constant([&] { return Base::TraverseVarDecl(D); });
    return Base::TraverseVarDecl(D);
  }
  bool TraverseIfStmt(IfStmt *S) {
    if (!S->isConstexpr())
      return Base::TraverseIfStmt(S);
    return TraverseStmt(S->getInit()) &&
           constant([&] { return TraverseStmt(S->getCond()); }) &&
           TraverseStmt(S->getThen()) && TraverseStmt(S->getElse());
  }

  bool VisitParenExpr(ParenExpr *P) {
    // MVECTOR_SIZE expands to one parenthesised expression.
    SourceLocation Loc = P->getBeginLoc();
    if (Loc.isMacroID() && Lexer::isAtStartOfMacroExpansion(Loc, SM, LO) &&
        Lexer::getImmediateMacroName(Loc, SM, LO) == "MVECTOR_SIZE")
      record(SM.getExpansionRange(Loc));
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (V && V->getName() == "warpSize" &&
        V->getDeclContext()->isTranslationUnit() &&
        !E->getLocation().isMacroID())
      record(CharSourceRange::getTokenRange(E->getLocation()));
    return true;
  }

private:
  /// A call statement with explicit template arguments: if one of them
  /// uses the width, the statement can be dispatched.
  void findDispatchCandidate(Stmt *S) {
    CallStmt = DispatchCallee = nullptr;
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return;
    const auto *Call = dyn_cast<CallExpr>(E->IgnoreImplicit());
    if (!Call || !Call->getCallee())
      return;
    const Expr *Callee = Call->getCallee()->IgnoreImplicit();
    bool HasArgs = false;
    if (const auto *D = dyn_cast<DeclRefExpr>(Callee))
      HasArgs = D->hasExplicitTemplateArgs();
    else if (const auto *U = dyn_cast<OverloadExpr>(Callee))
      HasArgs = U->hasExplicitTemplateArgs();
    else if (const auto *M = dyn_cast<MemberExpr>(Callee))
      HasArgs = M->hasExplicitTemplateArgs();
    if (HasArgs) {
      CallStmt = Call;
      DispatchCallee = Callee;
    }
  }

  template <class F> bool withOwner(const Expr *E, F &&Traverse) {
    const Expr *Saved = Owner;
    Owner = E;
    bool OK = Traverse();
    Owner = Saved;
    return OK;
  }
  template <class F> bool inContext(WidthUse::ContextKind K, F &&Traverse) {
    Contexts.push_back(K);
    bool OK = Traverse();
    Contexts.pop_back();
    return OK;
  }
  template <class F> bool constant(F &&Traverse) {
    return inContext(WidthUse::Constant, Traverse);
  }

  void record(CharSourceRange Range) {
    WidthUse U;
    U.Range = Range;
    U.Context = Contexts.empty() ? WidthUse::RunTime : Contexts.back();
    if (U.Context == WidthUse::DispatchArg)
      U.Stmt = CallStmt;
    Uses.push_back(U);
  }

  const SourceManager &SM;
  const LangOptions &LO;
  std::vector<WidthUse::ContextKind> Contexts;
  const Expr *CallStmt = nullptr;
  const Expr *DispatchCallee = nullptr;
  const Expr *Owner = nullptr;
};

} // namespace

std::vector<WidthUse> findHostWidthUses(const Stmt *Body, ASTContext &Ctx) {
  WidthUseFinder Finder(Ctx);
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(Finder.Uses);
}

} // namespace rewrite
} // namespace hpp
