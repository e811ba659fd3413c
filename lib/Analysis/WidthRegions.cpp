//===- WidthRegions.cpp - Host statements that need the width constant ----===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/WidthRegions.h"
#include "Dialect/DeviceCode.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace clang;

namespace hpp {
namespace rewrite {

bool WidthRegion::contains(SourceLocation Loc, const SourceManager &SM) const {
  return !SM.isBeforeInTranslationUnit(Loc, Range.getBegin()) &&
         SM.isBeforeInTranslationUnit(Loc, Range.getEnd());
}

bool needsWidthConstant(const WidthUse &U) {
  return !U.InMacro && (U.Context == WidthUse::Constant ||
                        (U.Context == WidthUse::DispatchArg && U.Via));
}

namespace {

/// The blocks of a body, with the function (or lambda) whose body each is.
class BlockFinder : public DynamicASTVisitor {
public:
  struct Block {
    const CompoundStmt *S;
    const FunctionDecl *BodyOf; ///< Null unless it is a function's body.
  };
  std::vector<Block> Blocks;
  const FunctionDecl *Next = nullptr;

  bool TraverseLambdaExpr(LambdaExpr *L) override {
    // Device lambdas are device code: no host region is in them.
    if (getDeviceAnnotation(L->getCallOperator()))
      return true;
    Next = L->getCallOperator();
    return DynamicASTVisitor::TraverseLambdaExpr(L);
  }
  bool VisitCompoundStmt(CompoundStmt *S) override {
    Blocks.push_back({S, Next && Next->getBody() == S ? Next : nullptr});
    Next = nullptr;
    return true;
  }
};

/// Whether a statement refers to one of a set of declarations.
class RefersTo : public DynamicASTVisitor {
public:
  explicit RefersTo(const llvm::DenseSet<const Decl *> &Decls) : Decls(Decls) {}
  bool Found = false;
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    Found |= Decls.count(E->getDecl()->getCanonicalDecl()) != 0;
    return !Found;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) override {
    Found |= Decls.count(TL.getTypedefNameDecl()->getCanonicalDecl()) != 0;
    return !Found;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) override {
    Found |= Decls.count(TL.getDecl()->getCanonicalDecl()) != 0;
    return !Found;
  }

private:
  const llvm::DenseSet<const Decl *> &Decls;
};

/// What keeps statements from running inside a lambda: a jump out of
/// them, a case label of an enclosing switch, a static local (one per
/// width), a kernel launched from them (the outliner's), and where they
/// return.
class Exits : public DynamicASTVisitor {
public:
  std::string Problem;
  SourceLocation ProblemLoc;
  bool Returns = false;

  bool TraverseLambdaExpr(LambdaExpr *L) override {
    if (getDeviceAnnotation(L->getCallOperator()))
      return fail(L->getBeginLoc(), "a kernel launch (a device lambda)");
    // A host lambda's returns and jumps are its own; its launches and
    // static locals are the region's.
    unsigned SavedLoops = Loops, SavedSwitches = Switches;
    ++InLambda;
    bool OK = DynamicASTVisitor::TraverseLambdaExpr(L);
    --InLambda;
    Loops = SavedLoops;
    Switches = SavedSwitches;
    return OK;
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
    if (InLambda)
      return true;
    if (isa<ReturnStmt>(S))
      Returns = true;
    else if (isa<GotoStmt, IndirectGotoStmt, LabelStmt>(S))
      return fail(S->getBeginLoc(), "a goto or a label");
    else if (isa<CoreturnStmt, CoawaitExpr, CoyieldExpr>(S))
      return fail(S->getBeginLoc(), "a coroutine operator");
    else if (isa<BreakStmt>(S) && !Loops && !Switches)
      return fail(S->getBeginLoc(), "a 'break' out of them");
    else if (isa<ContinueStmt>(S) && !Loops)
      return fail(S->getBeginLoc(), "a 'continue' out of them");
    else if (isa<SwitchCase>(S) && !Switches)
      return fail(S->getBeginLoc(), "a case label of an enclosing switch");
    return true;
  }
  bool VisitVarDecl(VarDecl *D) override {
    if (D->isStaticLocal())
      return fail(D->getLocation(),
                  "a static local variable (there would be one per width)");
    return true;
  }

private:
  unsigned Loops = 0, Switches = 0, InLambda = 0;
  bool fail(SourceLocation Loc, StringRef What) {
    if (Problem.empty()) {
      Problem = What.str();
      ProblemLoc = Loc;
    }
    return false;
  }
};

/// The index of the statement of \p B that holds \p Loc, or -1.
int statementAt(const CompoundStmt *B, SourceLocation Loc,
                const SourceManager &SM) {
  int I = 0;
  for (const Stmt *S : B->body()) {
    SourceRange R(SM.getExpansionLoc(S->getBeginLoc()),
                  SM.getExpansionLoc(S->getEndLoc()));
    if (!SM.isBeforeInTranslationUnit(Loc, R.getBegin()) &&
        !SM.isBeforeInTranslationUnit(R.getEnd(), Loc))
      return I;
    ++I;
  }
  return -1;
}

/// The innermost block of \p Blocks that holds \p Loc.
const BlockFinder::Block *innermost(llvm::ArrayRef<BlockFinder::Block> Blocks,
                                    SourceLocation Loc,
                                    const SourceManager &SM) {
  const BlockFinder::Block *Best = nullptr;
  for (const BlockFinder::Block &B : Blocks)
    if (statementAt(B.S, Loc, SM) >= 0 &&
        (!Best || SM.isBeforeInTranslationUnit(
                      SM.getExpansionLoc(Best->S->getBeginLoc()),
                      SM.getExpansionLoc(B.S->getBeginLoc()))))
      Best = &B;
  return Best;
}

/// Extends \p R to the statements that use what it declares, and to the
/// end of its function's body where it returns; checks how control leaves.
void complete(WidthRegion &R, const FunctionDecl *BodyOf, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::ArrayRef<Stmt *> Body(R.Block->body_begin(), R.Block->body_end());
  for (bool Changed = true; Changed;) {
    Changed = false;
    llvm::DenseSet<const Decl *> Declared;
    for (unsigned I = R.First; I <= R.Last; ++I)
      if (const auto *DS = dyn_cast<DeclStmt>(Body[I]))
        for (const Decl *D : DS->decls())
          Declared.insert(D->getCanonicalDecl());
    for (unsigned J = Body.size(); J-- > R.Last + 1;) {
      RefersTo V(Declared);
      V.TraverseStmt(Body[J]);
      if (V.Found) {
        R.Last = J;
        Changed = true;
        break;
      }
    }
    Exits E;
    for (unsigned I = R.First; I <= R.Last && E.Problem.empty(); ++I)
      E.TraverseStmt(Body[I]);
    if (!E.Problem.empty()) {
      R.Problem = E.Problem;
      R.ProblemLoc = SM.getExpansionLoc(E.ProblemLoc);
      break;
    }
    if (!E.Returns)
      continue;
    if (!BodyOf) {
      R.Problem = "a 'return' from the middle of the function";
      R.ProblemLoc = SM.getExpansionLoc(Body[R.First]->getBeginLoc());
      break;
    }
    if (R.Last + 1 != Body.size()) {
      R.Last = Body.size() - 1;
      Changed = true;
      continue;
    }
    QualType T = BodyOf->getReturnType();
    if (T->isVoidType())
      continue;
    R.ReturnsValue = true;
    // Plain `auto`: the lambda deduces the same type from the same returns.
    QualType Written = BodyOf->getDeclaredReturnType();
    if (const auto *AT = dyn_cast<AutoType>(Written.getTypePtr()))
      if (AT->getKeyword() == AutoTypeKeyword::Auto && !AT->isConstrained() &&
          !Written.hasQualifiers())
        continue;
    SourceRange TR = BodyOf->getReturnTypeSourceRange();
    if (Written->getContainedAutoType() || TR.isInvalid() ||
        TR.getBegin().isMacroID() || TR.getEnd().isMacroID()) {
      R.Problem = "a 'return' in a function whose return type is deduced "
                  "other than as plain 'auto'";
      R.ProblemLoc = SM.getExpansionLoc(BodyOf->getLocation());
      break;
    }
    R.ReturnType = Lexer::getSourceText(CharSourceRange::getTokenRange(TR), SM,
                                        Ctx.getLangOpts())
                       .str();
  }
  SourceLocation B = Body[R.First]->getBeginLoc(),
                 E = Body[R.Last]->getEndLoc();
  if (R.Problem.empty() && (B.isMacroID() || E.isMacroID())) {
    R.Problem = "statements written through a macro";
    R.ProblemLoc = SM.getExpansionLoc(B);
  }
  // An expression statement, a return and a do-while end before their ';'.
  if (isa<Expr, ReturnStmt, DoStmt>(Body[R.Last]) && !E.isMacroID())
    if (std::optional<Token> Semi =
            Lexer::findNextToken(E, SM, Ctx.getLangOpts()))
      if (Semi->is(tok::semi) && !Semi->getLocation().isMacroID())
        E = Semi->getLocation();
  R.Range = CharSourceRange::getTokenRange(SM.getExpansionLoc(B),
                                           SM.getExpansionLoc(E));
  R.Range = Lexer::makeFileCharRange(R.Range, SM, Ctx.getLangOpts());
  if (R.Problem.empty() && BodyOf && BodyOf->isConstexpr()) {
    R.Problem = "a constexpr function (the width is known only at run time)";
    R.ProblemLoc = SM.getExpansionLoc(BodyOf->getLocation());
  }
}

} // namespace

std::vector<WidthRegion> findWidthRegions(const FunctionDecl *Fn,
                                          llvm::ArrayRef<WidthUse> Uses,
                                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  BlockFinder Finder;
  Finder.Next = Fn;
  Finder.TraverseStmt(Fn->getBody());

  // Each use's block and first statement: the outer of its own and, for a
  // use through a constant, its constant's declaration.
  llvm::MapVector<const BlockFinder::Block *, WidthRegion> ByBlock;
  for (const WidthUse &U : Uses) {
    if (!needsWidthConstant(U))
      continue;
    SourceLocation At = SM.getExpansionLoc(U.Range.getBegin());
    const BlockFinder::Block *B = innermost(Finder.Blocks, At, SM);
    if (U.Via) {
      SourceLocation Decl = SM.getExpansionLoc(U.Via->getLocation());
      if (const BlockFinder::Block *VB = innermost(Finder.Blocks, Decl, SM))
        if (statementAt(VB->S, At, SM) >= 0)
          B = VB;
    }
    if (!B)
      continue;
    int First = statementAt(B->S, At, SM);
    if (U.Via) {
      int D = statementAt(B->S, SM.getExpansionLoc(U.Via->getLocation()), SM);
      if (D >= 0 && D < First)
        First = D;
    }
    auto [It, New] = ByBlock.try_emplace(B);
    WidthRegion &R = It->second;
    if (New) {
      R.Block = B->S;
      R.First = R.Last = First;
      R.FirstUse = At;
      continue;
    }
    R.First = std::min<unsigned>(R.First, First);
    R.Last = std::max<unsigned>(R.Last, First);
    if (SM.isBeforeInTranslationUnit(At, R.FirstUse))
      R.FirstUse = At;
  }
  std::vector<WidthRegion> Out;
  for (auto &[B, R] : ByBlock) {
    complete(R, B->BodyOf, Ctx);
    Out.push_back(std::move(R));
  }
  // A region inside another is part of it.
  llvm::sort(Out, [&](const WidthRegion &A, const WidthRegion &B) {
    return SM.isBeforeInTranslationUnit(A.Range.getBegin(), B.Range.getBegin());
  });
  std::vector<WidthRegion> Outer;
  for (WidthRegion &R : Out) {
    // (The outer region's own check covers the inner one's statements.)
    if (!Outer.empty() && Outer.back().contains(R.Range.getBegin(), SM))
      continue;
    Outer.push_back(std::move(R));
  }
  return Outer;
}

} // namespace rewrite
} // namespace hpp
