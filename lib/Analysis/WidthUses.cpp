//===- WidthUses.cpp - Where host code uses the mvector width -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/WidthUses.h"
#include "Dialect/DeviceCode.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace {

/// Walks host code, keeping a stack of the contexts it is in.
class WidthUseFinder : public DynamicASTVisitor {
  using Base = DynamicASTVisitor;

public:
  WidthUseFinder(ASTContext &Ctx, bool Device)
      : SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), Device(Device) {}

  std::vector<WidthUse> Uses;

  /// Finds the statement positions of \p Body, then its uses.
  void run(Stmt *Body) {
    if (!Device)
      collectPositions(Body);
    TraverseStmt(Body);
  }

  // Device code is another rule's business (in host code); lambdas in
  // device code are device code.
  bool TraverseLambdaExpr(LambdaExpr *L) override {
    if (Device || !getDeviceAnnotation(L->getCallOperator())) {
      noteNoexcept(L->getCallOperator()->getType());
      return Base::TraverseLambdaExpr(L);
    }
    // Its init-captures are evaluated on the host (`[w = MVECTOR_SIZE]`).
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable())
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          if (VD->isInitCapture() && VD->getInit())
            if (!TraverseStmt(const_cast<Expr *>(VD->getInit())))
              return false;
    // A constant that holds the width, read but not captured (it is not
    // odr-used), would reach the kernel as its value while the tool parses.
    if (!Holders.empty())
      findUncaptured(L, L->getBody());
    return true;
  }

  /// A statement position (lib/Analysis/WidthUses.h): a call statement there
  /// may be dispatched.
  bool TraverseStmt(Stmt *S) override {
    if (!S)
      return true;
    if (NoexceptExprs.erase(S))
      return constant([&] { return TraverseStmt(S); });
    auto It = Positions.find(S);
    if (It == Positions.end())
      return Base::TraverseStmt(S);
    const Expr *SavedCall = CallStmt;
    const Expr *SavedCallee = DispatchCallee;
    bool SavedBraces = Braces;
    findDispatchCandidate(S);
    Braces = It->second;
    bool OK = Base::TraverseStmt(S);
    CallStmt = SavedCall;
    DispatchCallee = SavedCallee;
    Braces = SavedBraces;
    return OK;
  }

  // Whose template arguments are being traversed.
  bool TraverseDeclRefExpr(DeclRefExpr *E) override {
    return withOwner(E, [&] { return Base::TraverseDeclRefExpr(E); });
  }
  bool TraverseUnresolvedLookupExpr(UnresolvedLookupExpr *E) override {
    return withOwner(E, [&] { return Base::TraverseUnresolvedLookupExpr(E); });
  }
  bool TraverseMemberExpr(MemberExpr *E) override {
    return withOwner(E, [&] { return Base::TraverseMemberExpr(E); });
  }

  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &A) override {
    bool Dispatch = !Device && Owner && Owner == DispatchCallee;
    return inContext(Dispatch ? WidthUse::DispatchArg : WidthUse::Constant,
                     [&] { return Base::TraverseTemplateArgumentLoc(A); });
  }

  // Contexts that need a constant expression.
  bool TraverseConstantArrayTypeLoc(ConstantArrayTypeLoc TL) override {
    return constant([&] { return Base::TraverseConstantArrayTypeLoc(TL); });
  }
  bool TraverseVariableArrayTypeLoc(VariableArrayTypeLoc TL) override {
    return constant([&] { return Base::TraverseVariableArrayTypeLoc(TL); });
  }
  bool TraverseStaticAssertDecl(StaticAssertDecl *D) override {
    return constant([&] { return Base::TraverseStaticAssertDecl(D); });
  }
  bool TraverseCaseStmt(CaseStmt *S) override {
    if (!constant([&] { return TraverseStmt(S->getLHS()); }))
      return false;
    return TraverseStmt(S->getSubStmt());
  }
  bool TraverseVarDecl(VarDecl *D) override {
    if (D->isConstexpr())
      return constant([&] { return Base::TraverseVarDecl(D); });
    // A constant initialised with the width is one only while the tool
    // parses: note it, and report its uses where a constant is needed.
    QualType T = D->getType();
    if (!T.isConstQualified() || T.isVolatileQualified() ||
        !T->isIntegralOrEnumerationType() || !D->getInit())
      return Base::TraverseVarDecl(D);
    Initialising.push_back(D);
    bool OK = Base::TraverseVarDecl(D);
    Initialising.pop_back();
    return OK;
  }
  bool TraverseEnumConstantDecl(EnumConstantDecl *D) override {
    return constant([&] { return Base::TraverseEnumConstantDecl(D); });
  }
  bool TraverseFieldDecl(FieldDecl *D) override {
    if (!D->isBitField())
      return Base::TraverseFieldDecl(D);
    return constant([&] { return Base::TraverseFieldDecl(D); });
  }
  // `alignas(...)` and other attributes' arguments, a noexcept-specifier.
  bool TraverseAttr(Attr *A) override {
    return constant([&] { return Base::TraverseAttr(A); });
  }
  bool TraverseFunctionProtoTypeLoc(FunctionProtoTypeLoc TL) override {
    noteNoexcept(TL.getType());
    return Base::TraverseFunctionProtoTypeLoc(TL);
  }
  bool TraverseIfStmt(IfStmt *S) override {
    if (!S->isConstexpr())
      return Base::TraverseIfStmt(S);
    return TraverseStmt(S->getInit()) &&
           constant([&] { return TraverseStmt(S->getCond()); }) &&
           TraverseStmt(S->getThen()) && TraverseStmt(S->getElse());
  }

  bool VisitParenExpr(ParenExpr *P) override {
    // MVECTOR_SIZE expands to one parenthesised expression.
    SourceLocation Loc = P->getBeginLoc();
    if (Loc.isMacroID() && Lexer::isAtStartOfMacroExpansion(Loc, SM, LO) &&
        Lexer::getImmediateMacroName(Loc, SM, LO) == "MVECTOR_SIZE") {
      record(SM.getExpansionRange(Loc));
      return true;
    }
    // Written inside another macro's expansion (`#define PER_LANE(n) int
    // n[MVECTOR_SIZE]`, `F(MVECTOR_SIZE)`): no edit can reach it (device
    // code's are hpp-warp-size's).
    for (SourceLocation L = Loc; !Device && L.isMacroID();
         L = SM.getImmediateMacroCallerLoc(L))
      if (Lexer::getImmediateMacroName(L, SM, LO) == "MVECTOR_SIZE" &&
          SM.isAtStartOfImmediateMacroExpansion(L)) {
        record(CharSourceRange::getTokenRange(SM.getExpansionLoc(Loc)));
        Uses.back().InMacro = true;
        break;
      }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (!V)
      return true;
    if (V->getIdentifier() && V->getName() == "warpSize" &&
        V->getDeclContext()->isTranslationUnit()) {
      if (!E->getBeginLoc().isMacroID() && !E->getLocation().isMacroID()) {
        // `::warpSize` as a whole.
        record(
            CharSourceRange::getTokenRange(E->getBeginLoc(), E->getLocation()));
      } else if (!Device) {
        // In a macro's expansion: as MVECTOR_SIZE there.
        record(CharSourceRange::getTokenRange(
            SM.getExpansionLoc(E->getLocation())));
        Uses.back().InMacro = true;
      }
      return true;
    }
    if (!Holders.contains(V->getCanonicalDecl()))
      return true;
    // Through a constant that holds the width.
    if (!Initialising.empty())
      Holders.insert(Initialising.back()->getCanonicalDecl());
    if (Contexts.empty() || Contexts.back() == WidthUse::RunTime)
      return true;
    WidthUse U;
    U.Range =
        CharSourceRange::getTokenRange(SM.getExpansionLoc(E->getLocation()));
    U.Context = WidthUse::Constant;
    U.Via = V;
    Uses.push_back(U);
    return true;
  }

private:
  void findUncaptured(const LambdaExpr *L, const Stmt *S) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
        if (Holders.contains(V->getCanonicalDecl()) &&
            !llvm::any_of(L->captures(), [&](const LambdaCapture &C) {
              return C.capturesVariable() && C.getCapturedVar() == V;
            })) {
          WidthUse U;
          U.Range = CharSourceRange::getTokenRange(
              SM.getExpansionLoc(E->getLocation()));
          U.Context = WidthUse::Uncaptured;
          U.Via = V;
          Uses.push_back(U);
        }
    for (const Stmt *Child : S->children())
      findUncaptured(L, Child);
  }

  /// The statements of \p S (recursively) that stand alone: the children
  /// of a block (false) and the sub-statements of labels, `case`s, `if`s
  /// and loops (true: they are not in a block).
  void collectPositions(const Stmt *S) {
    if (!S)
      return;
    auto Mark = [&](const Stmt *Sub, bool InBraces) {
      if (Sub)
        Positions.try_emplace(Sub, InBraces);
    };
    if (const auto *C = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : C->body())
        Mark(Child, false);
    } else if (const auto *SC = dyn_cast<SwitchCase>(S)) {
      Mark(SC->getSubStmt(), true);
    } else if (const auto *L = dyn_cast<LabelStmt>(S)) {
      Mark(L->getSubStmt(), true);
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      Mark(If->getThen(), true);
      Mark(If->getElse(), true);
    } else if (const auto *F = dyn_cast<ForStmt>(S)) {
      Mark(F->getBody(), true);
    } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
      Mark(W->getBody(), true);
    } else if (const auto *D = dyn_cast<DoStmt>(S)) {
      Mark(D->getBody(), true);
    } else if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) {
      Mark(R->getBody(), true);
    }
    for (const Stmt *Child : S->children())
      collectPositions(Child);
  }

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

  void noteNoexcept(QualType T) {
    if (const auto *FPT = T->getAs<FunctionProtoType>())
      if (const Expr *NE = FPT->getNoexceptExpr())
        NoexceptExprs.insert(NE);
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
    if (U.Context == WidthUse::DispatchArg) {
      U.Stmt = CallStmt;
      U.NeedsBraces = Braces;
    }
    Uses.push_back(U);
    if (!Initialising.empty())
      Holders.insert(Initialising.back()->getCanonicalDecl());
  }

  const SourceManager &SM;
  const LangOptions &LO;
  /// In device code: no dispatch, lambdas are device code.
  bool Device;
  /// Statements that stand alone; true: not directly in a block.
  llvm::DenseMap<const Stmt *, bool> Positions;
  bool Braces = false;
  /// The `const` variables whose initialisers are being traversed, and
  /// those whose initialisers use the width.
  std::vector<const VarDecl *> Initialising;
  llvm::DenseSet<const VarDecl *> Holders;
  std::vector<WidthUse::ContextKind> Contexts;
  /// The noexcept-specifiers' expressions about to be traversed.
  llvm::DenseSet<const Stmt *> NoexceptExprs;
  const Expr *CallStmt = nullptr;
  const Expr *DispatchCallee = nullptr;
  const Expr *Owner = nullptr;
};

} // namespace

std::vector<WidthUse> findHostWidthUses(const Stmt *Body, ASTContext &Ctx) {
  WidthUseFinder Finder(Ctx, /*Device=*/false);
  Finder.run(const_cast<Stmt *>(Body));
  return std::move(Finder.Uses);
}

std::vector<WidthUse> findHostWidthUses(const Decl *D, ASTContext &Ctx) {
  WidthUseFinder Finder(Ctx, /*Device=*/false);
  Finder.TraverseDecl(const_cast<Decl *>(D));
  return std::move(Finder.Uses);
}

std::vector<WidthUse> findDeviceWidthUses(const Stmt *Body, ASTContext &Ctx) {
  WidthUseFinder Finder(Ctx, /*Device=*/true);
  Finder.run(const_cast<Stmt *>(Body));
  return std::move(Finder.Uses);
}

} // namespace rewrite
} // namespace hpp
