//===- WidthRegionStatements.cpp - What a region's statements do ----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/WidthRegionStatements.h"
#include "Dialect/DeviceCode.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace {

/// Whether statements refer to one of a set of declarations (a using-
/// declaration: through its shadows; a namespace alias: as a qualifier).
class RefersTo : public DynamicASTVisitor {
public:
  explicit RefersTo(const llvm::DenseSet<const Decl *> &Decls) : Decls(Decls) {}
  bool Found = false;

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    return check(E->getDecl()) && check(E->getFoundDecl());
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) override {
    for (const NamedDecl *D : E->decls())
      if (!check(D))
        return false;
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) override {
    for (const LambdaCapture &C : L->explicit_captures())
      if (C.capturesVariable() && !check(C.getCapturedVar()))
        return false;
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) override {
    return check(TL.getTypedefNameDecl());
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) override { return check(TL.getDecl()); }
  bool VisitUsingTypeLoc(UsingTypeLoc TL) override {
    return check(TL.getFoundDecl());
  }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc N) override {
    if (N && !check(N.getNestedNameSpecifier()->getAsNamespaceAlias()))
      return false;
    return DynamicASTVisitor::TraverseNestedNameSpecifierLoc(N);
  }

private:
  /// False (stop) once \p D is one of them.
  bool check(const NamedDecl *D) {
    if (const auto *S = dyn_cast_or_null<UsingShadowDecl>(D))
      D = S->getIntroducer();
    Found |= D && Decls.count(D->getCanonicalDecl());
    return !Found;
  }
  const llvm::DenseSet<const Decl *> &Decls;
};

/// What keeps statements from running inside a lambda (StatementExits).
class Exits : public DynamicASTVisitor {
public:
  StatementExits Found;

  bool TraverseLambdaExpr(LambdaExpr *L) override {
    if (getDeviceAnnotation(L->getCallOperator()))
      return fail(L->getBeginLoc(), "a kernel launch (a device lambda)");
    return ownControl([&] { return DynamicASTVisitor::TraverseLambdaExpr(L); });
  }
  // A host lambda's and a local class's member functions' returns and
  // jumps are their own; their launches and static locals are the region's.
  bool TraverseCXXMethodDecl(CXXMethodDecl *D) override {
    return ownControl(
        [&] { return DynamicASTVisitor::TraverseCXXMethodDecl(D); });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *D) override {
    return ownControl(
        [&] { return DynamicASTVisitor::TraverseCXXConstructorDecl(D); });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *D) override {
    return ownControl(
        [&] { return DynamicASTVisitor::TraverseCXXDestructorDecl(D); });
  }
  bool TraverseCXXConversionDecl(CXXConversionDecl *D) override {
    return ownControl(
        [&] { return DynamicASTVisitor::TraverseCXXConversionDecl(D); });
  }
  bool TraverseStmt(Stmt *S) override {
    if (!S)
      return true;
    bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
    bool Switch = isa<SwitchStmt>(S);
    Loops += Loop;
    Switches += Switch;
    bool OK = DynamicASTVisitor::TraverseStmt(S);
    Loops -= Loop;
    Switches -= Switch;
    return OK;
  }
  bool VisitStmt(Stmt *S) override {
    if (Own)
      return true;
    if (isa<ReturnStmt>(S))
      Found.Returns = true;
    else if (const auto *G = dyn_cast<GotoStmt>(S))
      Gotos.push_back(G);
    else if (const auto *L = dyn_cast<LabelStmt>(S))
      Labels.insert(L->getDecl());
    else if (isa<IndirectGotoStmt, AddrLabelExpr>(S))
      return fail(S->getBeginLoc(), "a computed goto");
    else if (isa<CoreturnStmt, CoawaitExpr, CoyieldExpr>(S))
      return fail(S->getBeginLoc(), "a coroutine operator");
    else if (isa<BreakStmt>(S) && !Loops && !Switches)
      return fail(S->getBeginLoc(), "a 'break' out of them");
    else if (isa<ContinueStmt>(S) && !Loops)
      return fail(S->getBeginLoc(), "a 'continue' out of them");
    else if (isa<SwitchCase>(S) && !Switches)
      return fail(S->getBeginLoc(), "a case label of an enclosing switch");
    else if (isa<PredefinedExpr>(S) && !S->getBeginLoc().isMacroID())
      return fail(S->getBeginLoc(), "the name of the function (__func__), "
                                    "which would be the lambda's");
    return true;
  }
  bool VisitVarDecl(VarDecl *D) override {
    if (D->isStaticLocal())
      return fail(D->getLocation(),
                  "a static local variable (there would be one per width)");
    return true;
  }

  // Their gotos and labels: one may jump to the other.
  std::vector<const GotoStmt *> Gotos;
  llvm::DenseSet<const LabelDecl *> Labels;

  bool fail(SourceLocation Loc, StringRef What) {
    if (Found.Problem.empty()) {
      Found.Problem = What.str();
      Found.ProblemLoc = Loc;
    }
    return false;
  }

private:
  unsigned Loops = 0, Switches = 0, Own = 0;
  template <class F> bool ownControl(F &&Traverse) {
    unsigned SavedLoops = Loops, SavedSwitches = Switches;
    ++Own;
    bool OK = Traverse();
    --Own;
    Loops = SavedLoops;
    Switches = SavedSwitches;
    return OK;
  }
};

/// The gotos of a function's body (its lambdas' and local classes' are
/// theirs, and jump to their own labels).
void gotosOf(const Stmt *S, std::vector<const GotoStmt *> &Out) {
  if (!S)
    return;
  if (const auto *G = dyn_cast<GotoStmt>(S))
    Out.push_back(G);
  for (const Stmt *C : S->children())
    gotosOf(C, Out);
}

} // namespace

bool declaresFor(const Stmt *S, llvm::DenseSet<const Decl *> &Out) {
  const auto *DS = dyn_cast<DeclStmt>(S);
  if (!DS)
    return true;
  for (const Decl *D : DS->decls()) {
    if (isa<UsingDirectiveDecl>(D))
      return false;
    Out.insert(D->getCanonicalDecl());
    if (const auto *DD = dyn_cast<DecompositionDecl>(D))
      for (const BindingDecl *B : DD->bindings())
        Out.insert(B);
    if (const auto *E = dyn_cast<EnumDecl>(D))
      for (const EnumConstantDecl *C : E->enumerators())
        Out.insert(C);
  }
  return true;
}

bool endsBeforeSemicolon(const Stmt *S) {
  for (;;) {
    if (const auto *I = dyn_cast<IfStmt>(S))
      S = I->getElse() ? I->getElse() : I->getThen();
    else if (const auto *F = dyn_cast<ForStmt>(S))
      S = F->getBody();
    else if (const auto *W = dyn_cast<WhileStmt>(S))
      S = W->getBody();
    else if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
      S = R->getBody();
    else if (const auto *Sw = dyn_cast<SwitchStmt>(S))
      S = Sw->getBody();
    else if (const auto *L = dyn_cast<LabelStmt>(S))
      S = L->getSubStmt();
    else if (const auto *C = dyn_cast<SwitchCase>(S))
      S = C->getSubStmt();
    else if (const auto *A = dyn_cast<AttributedStmt>(S))
      S = A->getSubStmt();
    else
      return isa<Expr, ReturnStmt, DoStmt, BreakStmt, ContinueStmt, GotoStmt,
                 IndirectGotoStmt, CoreturnStmt>(S);
  }
}

StatementExits findExits(llvm::ArrayRef<Stmt *> Stmts, const Stmt *Body) {
  Exits E;
  for (Stmt *S : Stmts)
    if (!E.TraverseStmt(S))
      break;
  for (const GotoStmt *G : E.Gotos)
    if (!E.Labels.count(G->getLabel()))
      E.fail(G->getBeginLoc(), "a goto out of them");
  if (!E.Labels.empty() && E.Found.Problem.empty()) {
    std::vector<const GotoStmt *> All;
    gotosOf(Body, All);
    for (const GotoStmt *G : All)
      if (E.Labels.count(G->getLabel()) && !llvm::is_contained(E.Gotos, G))
        E.fail(G->getLabel()->getStmt()->getBeginLoc(),
               "a label that a goto outside them jumps to");
  }
  return E.Found;
}

bool refersTo(const Stmt *S, const llvm::DenseSet<const Decl *> &Decls) {
  RefersTo V(Decls);
  V.TraverseStmt(const_cast<Stmt *>(S));
  return V.Found;
}

SourceLocation unbalancedConditional(CharSourceRange Range,
                                     const SourceManager &SM,
                                     const LangOptions &LO) {
  StringRef Text = Lexer::getSourceText(Range, SM, LO);
  SourceLocation Begin = Range.getBegin();
  std::vector<size_t> Open;
  for (size_t Pos = 0; Pos < Text.size();) {
    size_t End = Text.find('\n', Pos);
    StringRef Line = Text.slice(Pos, End);
    size_t Hash = Pos + Line.size() - Line.ltrim().size();
    Line = Line.ltrim();
    if (Line.consume_front("#")) {
      Line = Line.ltrim();
      SourceLocation At = Begin.getLocWithOffset(Hash);
      if (Line.starts_with("if"))
        Open.push_back(Hash);
      else if (Line.starts_with("endif") && !Open.empty())
        Open.pop_back();
      else if (Line.starts_with("e") && Open.empty() &&
               (Line.starts_with("else") || Line.starts_with("elif") ||
                Line.starts_with("endif")))
        return At;
    }
    if (End == StringRef::npos)
      break;
    Pos = End + 1;
  }
  return Open.empty() ? SourceLocation() : Begin.getLocWithOffset(Open[0]);
}

} // namespace rewrite
} // namespace hpp
